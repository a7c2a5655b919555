import { z } from 'zod';

/** The User of the contract (API.md "Shapes"): what an owner and staff see. Never a password or pin hash. */
const fileLink = z.object({ url: z.string().regex(/^\/api\/files\/[0-9a-f-]{36}$/) }).strict();

export const userShape = z
  .object({
    _id: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phone: z.string(),
    location: z.object({ address: z.string(), state: z.string() }).strict(),
    account: z
      .object({
        number: z.string().regex(/^\d{10}$/),
        savings: z.number().describe('dollars'),
        checking: z.number().describe('dollars'),
      })
      .strict(),
    profilePicture: fileLink.nullable(),
    verificationStatus: z.enum(['awaiting', 'pending', 'verified', 'failed']),
    verification: z
      .object({ documentType: z.string(), documentFront: fileLink, documentBack: fileLink })
      .strict()
      .nullable(),
    isBlocked: z.boolean(),
    isDisabled: z.boolean(),
    hasPaymentPin: z.boolean(),
    isAdmin: z.boolean(),
    role: z.enum(['customer', 'admin', 'auditor']),
    createdAt: z.iso.datetime({ offset: true }),
    /** The user confirmed their current e-mail address (GET /auth/user, /user/me, sign-in and sign-up answers). */
    emailVerified: z.boolean().optional(),
  })
  .strict();

export type UserJson = z.infer<typeof userShape>;

export const cardRequestShape = z
  .object({ _id: z.uuid(), cardType: z.string().nullable(), status: z.string(), requestedAt: z.iso.datetime({ offset: true }) })
  .strict();

export type CardRequestJson = z.infer<typeof cardRequestShape>;

/** GET /user/admin/:id: the user with the customer's card requests (newest first). */
export const adminUserShape = userShape.extend({ cardRequests: z.array(cardRequestShape) }).strict();

export type AdminUserJson = z.infer<typeof adminUserShape>;
