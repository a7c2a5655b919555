/**
 * The domain's schemas the public forms check with (the ones the server applies). Never import this module
 * statically: forms load it with `loadFormSchemas()` when a person first uses them, so zod is not part of the
 * pages' first load.
 */
export { contactInput, requiredEmail } from '@bank/domain';
