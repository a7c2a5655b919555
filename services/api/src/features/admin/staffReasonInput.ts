import { MAX_REASON_LENGTH, optionalText } from '@bank/domain';
import { z } from 'zod';

/**
 * The optional `reason` of an admin's money change (POST /transaction/admin/:userId), kept on the journal entry:
 * at most MAX_REASON_LENGTH characters (400 'Reason must be at most 500 characters').
 */
export const staffReasonInput = z.object({ reason: optionalText('Reason', MAX_REASON_LENGTH) });
