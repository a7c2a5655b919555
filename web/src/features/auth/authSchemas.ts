/**
 * The domain's schemas the sign-in and sign-up forms check with (the ones the server applies). Never import this
 * module statically: the forms load it with `loadAuthSchemas()` when a person first uses them, so zod is not part of
 * the pages' first load.
 */
export { signinInput, signupForm } from '@bank/domain';
