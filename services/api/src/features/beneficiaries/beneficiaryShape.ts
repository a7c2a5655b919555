import { z } from 'zod';

export const beneficiaryShape = z
  .object({ _id: z.uuid(), name: z.string(), accountNumber: z.string(), bankName: z.string().optional() })
  .strict();

export type BeneficiaryJson = z.infer<typeof beneficiaryShape>;
