import { ButtonLink } from '../../../components/ButtonLink';
import { PageTitle } from '../../../components/PageTitle';
import { FeatureSection } from '../components/FeatureSection';
import { LoanSteps } from '../components/LoanSteps';
import { PageBanner } from '../components/PageBanner';
import { HomeArt } from '../components/illustrations/HomeArt';

export function HomeLoanPage() {
  return (
    <>
      <PageTitle>Home Loan</PageTitle>
      <PageBanner
        eyebrow="Home Loan"
        title="Finance the home you have been dreaming of"
        art={<HomeArt />}
        actions={
          <ButtonLink to="/contact" variant="accent" size="large">
            Apply Here
          </ButtonLink>
        }
      >
        <p>Buy, build or refinance with fixed or adjustable rates, terms from 10 to 30 years and a decision within days.</p>
      </PageBanner>
      <FeatureSection
        id="loan-features-title"
        eyebrow="Why borrow with us"
        title="A mortgage that fits your life"
        features={[
          { title: 'Fixed or adjustable', icon: 'percent', text: 'Lock your rate for the whole term, or start lower with an adjustable rate.' },
          { title: 'Low down payment', icon: 'home', text: 'Buy with as little as 5% down, and no mortgage insurance above 20%.' },
          { title: 'Refinance anytime', icon: 'refresh', text: 'Move your mortgage to us for a better rate, with no early repayment fee.' },
        ]}
      />
      <LoanSteps product="home loan" />
    </>
  );
}
