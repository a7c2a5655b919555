import { z } from 'zod';
import { accountNumberSchema, idSchema } from '../primitives';

/** Events of the reservation streams `email-<lowercased email>` and `accountnumber-<10 digits>`. */

export const emailReservationSchema = z.object({
  /** Lower-cased, trimmed. */
  email: z.string().min(1),
  userId: idSchema,
});

export const accountNumberReservationSchema = z.object({
  accountNumber: accountNumberSchema,
  userId: idSchema,
});

export const reservationEventSchemas = {
  EmailReserved: emailReservationSchema,
  EmailReleased: emailReservationSchema,
  AccountNumberReserved: accountNumberReservationSchema,
  AccountNumberReleased: accountNumberReservationSchema,
} as const;
