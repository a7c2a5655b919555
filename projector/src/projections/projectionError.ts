/** An event a projection cannot apply (e.g. it changes a row that does not exist): stops the projector. */
export class ProjectionError extends Error {
  override readonly name = 'ProjectionError';
}
