import { ButtonLink } from '../../../components/ButtonLink';
import { PageTitle } from '../../../components/PageTitle';
import { FeatureSection } from '../components/FeatureSection';
import { LoanSteps } from '../components/LoanSteps';
import { PageBanner } from '../components/PageBanner';
import { CarArt } from '../components/illustrations/CarArt';

export function AutoLoanPage() {
  return (
    <>
      <PageTitle>Vehicle Loan</PageTitle>
      <PageBanner
        eyebrow="Vehicle Loan"
        title="Drive away in your next car sooner"
        art={<CarArt />}
        actions={
          <ButtonLink to="/contact" variant="accent" size="large">
            Apply Here
          </ButtonLink>
        }
      >
        <p>New or used, from a dealer or a private seller: fixed monthly payments over 1 to 7 years.</p>
      </PageBanner>
      <FeatureSection
        id="loan-features-title"
        eyebrow="Why borrow with us"
        title="Car finance without the fine print"
        features={[
          { title: 'Fixed payments', icon: 'percent', text: 'One rate and one monthly payment for the life of your loan.' },
          { title: 'New or used', icon: 'car', text: 'Finance cars, motorbikes and recreational vehicles up to 10 years old.' },
          { title: 'Pay off early', icon: 'check', text: 'Make extra payments or settle your loan early at no charge.' },
        ]}
      />
      <LoanSteps product="vehicle loan" />
    </>
  );
}
