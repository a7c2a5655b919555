import { Spinner } from '../../../components/Spinner';
import { useFileObjectUrl } from '../../../lib/api/queries/useFileObjectUrl';

/** A stored document image (/api/files/:id): fetched with the bearer token and shown through an object URL. */
export function ProtectedImage({ url, alt }: { url: string; alt: string }) {
  const { objectUrl, isError } = useFileObjectUrl(url);
  if (isError) return <p className="admin-muted">{alt}: the image could not be loaded.</p>;
  if (!objectUrl) return <Spinner label={`Loading ${alt.toLowerCase()}`} />;
  return (
    <a href={objectUrl} target="_blank" rel="noreferrer" className="admin-document">
      <img src={objectUrl} alt={alt} />
    </a>
  );
}
