import { z } from 'zod';

export const contactShape = z
  .object({
    _id: z.uuid(),
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    subject: z.string(),
    message: z.string(),
    createdAt: z.iso.datetime({ offset: true }),
  })
  .strict();

export type ContactJson = z.infer<typeof contactShape>;
