import { NOTICE_KINDS } from '@bank/mail';
import { z } from 'zod';

/** GET /bank's data: the bank as every message names it. */
export const bankShape = z.object({ name: z.string(), routingNumber: z.string().regex(/^\d{9}$/), address: z.string(), phone: z.string(), email: z.string() }).strict();

/** One kind of notice and whether it is sent (`locked`: a security notice, always sent). */
export const notificationSettingShape = z.object({ kind: z.enum(NOTICE_KINDS), enabled: z.boolean(), locked: z.boolean() }).strict();

/** PUT /user/notifications: any of the kinds, true or false. */
export const notificationsInput = z.partialRecord(z.enum(NOTICE_KINDS), z.boolean());
