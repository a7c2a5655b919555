import { ButtonLink } from '../../../components/ButtonLink';
import { PageTitle } from '../../../components/PageTitle';

/** Any path that matches no screen. */
export function NotFoundPage() {
  return (
    <>
      <PageTitle>Not Found</PageTitle>
      <section className="section not-found" aria-labelledby="not-found-title">
        <div className="container narrow not-found-inner">
          <p className="not-found-code" aria-hidden="true">
            404
          </p>
          <h1 id="not-found-title">Not Found</h1>
          <p className="lead">The page you are looking for does not exist or has moved.</p>
          <div className="not-found-actions">
            <ButtonLink to="/" size="large">
              Back to home
            </ButtonLink>
            <ButtonLink to="/contact" variant="secondary" size="large">
              Contact us
            </ButtonLink>
          </div>
        </div>
      </section>
    </>
  );
}
