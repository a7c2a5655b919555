import { PageTitle } from '../../../components/PageTitle';
import { bankDetails } from '../../../components/bankDetails';
import { AppDownloadBanner } from '../components/AppDownloadBanner';
import { AudienceTabs } from '../components/AudienceTabs';
import { CardPersonalisation } from '../components/CardPersonalisation';
import { EmergencyServices } from '../components/EmergencyServices';
import { FeaturesBlock } from '../components/FeaturesBlock';
import { HeroCarousel } from '../components/HeroCarousel';
import { WealthCarousel } from '../components/WealthCarousel';

export function HomePage() {
  return (
    <>
      <PageTitle />
      <h1 className="visually-hidden">{bankDetails.name}: personal and business banking</h1>
      <HeroCarousel />
      <FeaturesBlock />
      <AudienceTabs />
      <WealthCarousel />
      <EmergencyServices />
      <CardPersonalisation />
      <AppDownloadBanner />
    </>
  );
}
