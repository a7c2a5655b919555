import type { ReactNode } from 'react';
import { ButtonLink } from '../../../components/ButtonLink';
import { formatWholeDollars } from '../../../components/money';
import { CardArt } from './illustrations/CardArt';
import { HomeArt } from './illustrations/HomeArt';
import { SavingsArt } from './illustrations/SavingsArt';

interface HeroSlide {
  readonly eyebrow: string;
  readonly title: string;
  readonly text: string;
  readonly cta: string;
  readonly art: ReactNode;
}

export const heroSlides: readonly HeroSlide[] = [
  {
    eyebrow: 'Savings',
    title: 'Grow your savings with up to 5% a year',
    text: `Open an account online in minutes. Your deposits are insured up to ${formatWholeDollars(250_000)}.`,
    cta: 'Open an Account',
    art: <SavingsArt />,
  },
  {
    eyebrow: 'Home loans',
    title: 'The keys to your new home, sooner',
    text: 'Fixed and adjustable rates, a decision in days and a loan officer with you from offer to closing.',
    cta: 'Get Started',
    art: <HomeArt />,
  },
  {
    eyebrow: 'Credit cards',
    title: `Earn ${formatWholeDollars(200)} after you spend ${formatWholeDollars(1500)} in 6 months`,
    text: 'Plus 2% cash back on every purchase, with no annual fee and contactless payments worldwide.',
    cta: 'Apply Today',
    art: <CardArt />,
  },
];

/** Hero carousel: one slide at a time, 50px apart (spec, section 9). */
export const heroCarouselOptions = { slidesPerView: 1, spaceBetween: 50 } as const;

/** One hero slide's content (the same in the static and the live carousel). */
export function HeroSlideContent({ slide }: { slide: HeroSlide }) {
  return (
    <div className="container hero-slide">
      <div className="hero-copy">
        <span className="eyebrow hero-eyebrow">{slide.eyebrow}</span>
        <h2 className="hero-title">{slide.title}</h2>
        <p className="hero-text">{slide.text}</p>
        <ButtonLink to="/signup" variant="accent" size="large">
          {slide.cta}
        </ButtonLink>
      </div>
      <div className="hero-art">{slide.art}</div>
    </div>
  );
}
