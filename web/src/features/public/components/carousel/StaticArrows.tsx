/** Swiper's navigation arrows as the static carousel shows them: pressing one starts the live carousel there. */
export function StaticArrows({ current, count, onGo }: { current: number; count: number; onGo: (slide: number) => void }) {
  return (
    <>
      <button
        type="button"
        className={`swiper-button-prev${current === 0 ? ' swiper-button-disabled' : ''}`}
        aria-label="Previous slide"
        aria-disabled={current === 0}
        onClick={() => current > 0 && onGo(current - 1)}
      >
        <Chevron />
      </button>
      <button
        type="button"
        className={`swiper-button-next${current === count - 1 ? ' swiper-button-disabled' : ''}`}
        aria-label="Next slide"
        aria-disabled={current === count - 1}
        onClick={() => current < count - 1 && onGo(current + 1)}
      >
        <Chevron />
      </button>
    </>
  );
}

function Chevron() {
  return (
    <svg className="swiper-navigation-icon" width="11" height="20" viewBox="0 0 11 20" fill="none" aria-hidden="true">
      <path d="M1 1l9 9-9 9" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** Swiper's clickable pagination bullets, static: pressing one starts the live carousel on that slide. */
export function StaticBullets({ current, count, onGo }: { current: number; count: number; onGo: (slide: number) => void }) {
  return (
    <div className="swiper-pagination swiper-pagination-clickable swiper-pagination-bullets swiper-pagination-horizontal">
      {Array.from({ length: count }, (_, index) => (
        <button
          key={index}
          type="button"
          className={`swiper-pagination-bullet${index === current ? ' swiper-pagination-bullet-active' : ''}`}
          aria-label={`Go to slide ${index + 1}`}
          aria-current={index === current ? 'true' : undefined}
          onClick={() => onGo(index)}
        />
      ))}
    </div>
  );
}
