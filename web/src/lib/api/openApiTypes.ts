/**
 * Generated from the API's OpenAPI document (services/api/src/features/openapi) by openapi-typescript:
 * do not edit; run `npm run api:types` after changing a route or a shape (a test fails while this file is stale).
 */
export type paths = Record<string, never>;
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AchFile: {
            /** Format: date-time */
            createdAt: string;
            /** Format: date */
            effectiveDate: string;
            entryCount: number;
            /** Format: uuid */
            id: string;
            sha256: string;
            /** @enum {string} */
            status: "created" | "transmitted";
            /** @description dollars */
            totalCredit: number;
            /** @description dollars */
            totalDebit: number;
        };
        AchFileDetail: components["schemas"]["AchFile"] & {
            entries: {
                accountNumber: string;
                /** @description dollars */
                amount: number;
                name: string;
                routingNumber: string;
                traceNumber: string;
                transactionCode: number;
                /** Format: uuid */
                transferId: string;
            }[];
        };
        AchIncomingResult: {
            alreadyApplied: number;
            credited: number;
            returned: {
                reason: string;
                traceNumber: string;
            }[];
        };
        AchReturnsResult: {
            alreadyApplied: number;
            applied: number;
            unmatched: {
                reason: string;
                traceNumber: string;
            }[];
        };
        AdminUser: components["schemas"]["User"] & {
            cardRequests: components["schemas"]["CardRequest"][];
        };
        Bank: {
            address: string;
            email: string;
            name: string;
            phone: string;
            routingNumber: string;
        };
        Beneficiary: {
            /** Format: uuid */
            _id: string;
            accountNumber: string;
            bankName?: string;
            name: string;
        };
        BusinessDate: {
            /** Format: date */
            businessDate: string;
            lastClosedDate: string | null;
            /** @enum {string} */
            mode: "calendar" | "manual";
        };
        BusinessDateAdvance: {
            /** Format: date */
            businessDate: string;
            closed: string[];
        };
        CardRequest: {
            /** Format: uuid */
            _id: string;
            cardType: string | null;
            /** Format: date-time */
            requestedAt: string;
            status: string;
        };
        ContactMessage: {
            /** Format: uuid */
            _id: string;
            /** Format: date-time */
            createdAt: string;
            email: string;
            message: string;
            name: string;
            phone: string;
            subject: string;
        };
        EnrolmentSecret: {
            /** Format: starts_with */
            otpauthUri: string;
            /**
             * Format: starts_with
             * @description The QR code of otpauthUri
             */
            qrCode: string;
            /** @description The TOTP key as base32 text, for typing into an app */
            secret: string;
        };
        Error: {
            errors?: {
                message: string;
                path: string;
            }[];
            message: string;
            requestId?: string;
        };
        Interest: {
            /** @description dollars: the month-to-date exact accrual plus the carry, rounded half to even */
            accruedThisMonth: number;
            /** @description the savings rate in force, percent a year */
            annualRate: number;
            apy: number;
            /** @description dollars */
            paidThisYear: number;
            payments: {
                /** @enum {string} */
                account: "savings" | "checking";
                /** @description dollars */
                amount: number;
                /** Format: date */
                date: string;
            }[];
            year: number;
        };
        LedgerAccount: {
            /** @description dollars */
            balance: number;
            code: string;
            /** @description dollars */
            credits: number;
            /** @description dollars */
            debits: number;
            key: string;
            name: string;
            /** @enum {string} */
            type: "asset" | "liability" | "equity" | "income" | "expense";
        };
        LedgerDay: {
            balanced: boolean;
            /** Format: date */
            businessDate: string;
            closedAt: string;
            journalHash: string;
            /** @description dollars */
            totalCredits: number;
            /** @description dollars */
            totalDebits: number;
        };
        LedgerEntry: {
            /** @enum {string} */
            account?: "savings" | "checking";
            actorId?: string;
            /** @description dollars */
            amount: number;
            /** Format: date-time */
            at: string;
            /** Format: date */
            businessDate: string;
            customerId?: string;
            description: string;
            eventId: string;
            position: string;
            /** @enum {string} */
            side: "debit" | "credit";
            transferId?: string;
        };
        NotificationSetting: {
            enabled: boolean;
            /** @enum {string} */
            kind: "moneyReceived" | "transferReturned" | "standingOrderFailed" | "interestPaid" | "statementReady" | "newDevice" | "passwordChanged" | "secondFactorChanged";
            locked: boolean;
        };
        Rate: {
            /** @enum {string} */
            account: "savings" | "checking";
            /** @description percent a year */
            annualRate: number;
            /** @description annual percentage yield, percent, two decimals: 100 × ((1 + r/1200)^12 − 1) */
            apy: number;
            /** Format: date */
            effectiveFrom: string;
        };
        Reconciliation: {
            clearing: {
                /** @description dollars */
                balance: number;
                key: string;
                openItems: {
                    /** @description dollars */
                    amount: number;
                    since: string;
                    transferId: string;
                }[];
            }[];
            controls: {
                /** @description dollars */
                balance: number;
                /** @description dollars */
                difference: number;
                key: string;
                /** @description dollars */
                subledgerTotal: number;
            }[];
            ok: boolean;
        };
        RecoveryCodes: {
            message: string;
            /** @description Shown once */
            recoveryCodes: string[];
        };
        SecondFactorChallenge: {
            /** @description Opaque; send it back to POST /auth/second-factor within 5 minutes, once */
            challenge: string;
            /** @enum {string} */
            message: "Second factor required" | "Second factor enrolment required";
            /** @enum {string} */
            secondFactor: "totp" | "enrol";
        };
        SecondFactorStatus: {
            enabled: boolean;
            enrolledAt: string | null;
            recoveryCodesLeft: number;
            /** @description Staff while STAFF_SECOND_FACTOR=required (GET /auth/second-factor only) */
            required?: boolean;
        };
        Session: {
            address: string;
            /** Format: date-time */
            createdAt: string;
            current: boolean;
            /** @description From the user agent, e.g. "Firefox on Linux" */
            device: string;
            /** Format: uuid */
            id: string;
            /** Format: date-time */
            lastUsedAt: string;
        };
        SignInNotice: {
            address: string;
            /** Format: date-time */
            createdAt: string;
            device: string;
            /**
             * Format: uuid
             * @description The sign-in's session id
             */
            id: string;
        };
        StandingOrder: {
            /** Format: uuid */
            _id: string;
            accountNumber: string;
            /** @enum {string} */
            accountType: "savings" | "checking";
            /** @description dollars */
            amount: number;
            bankName: string;
            /** Format: date-time */
            createdAt: string;
            description: string;
            /** @enum {string} */
            from: "savings" | "checking";
            /** @description the next payment (null when not active or ended) */
            nextDate: string | null;
            occurrences: {
                /** Format: date */
                date: string;
                reason?: string;
                /** @enum {string} */
                status: "paid" | "failed" | "missed";
                /**
                 * Format: uuid
                 * @description the payer's debit transaction of the occurrence's transfer
                 */
                transactionId?: string;
                /** Format: uuid */
                transferId?: string;
            }[];
            paymentsMade: number;
            recipientName: string;
            routingNumber: string;
            schedule: {
                count?: number;
                day: number;
                /** Format: date */
                endDate?: string;
                /** Format: date */
                firstDate: string;
                /** @enum {string} */
                frequency: "weekly" | "monthly";
            };
            /** @enum {string} */
            status: "active" | "paused" | "suspended" | "cancelled";
            suspendedReason: string | null;
        };
        Statement: {
            /** @enum {string} */
            account: "checking" | "savings";
            accountNumber: string;
            /** @description dollars, the balance at the end of `to` (UTC) */
            closingBalance: number;
            customerName: string;
            /** Format: date */
            from: string;
            /** @description dollars, the balance at the start of `from` (UTC) */
            openingBalance: number;
            /** Format: date */
            to: string;
            /** @description dollars */
            totalIn: number;
            /** @description dollars */
            totalOut: number;
            /** @description oldest first */
            transactions: {
                /**
                 * Format: uuid
                 * @description the transaction (as `id`; the Transaction shape's name)
                 */
                _id: string;
                /**
                 * @description the statement's account
                 * @enum {string}
                 */
                account: "checking" | "savings";
                /** @description dollars */
                amount: number;
                /** @description dollars: the running balance */
                balanceAfter: number;
                /**
                 * Format: date-time
                 * @description when the log recorded it
                 */
                date: string;
                description: string;
                /** Format: uuid */
                id: string;
                /** @enum {string} */
                kind: "transfer" | "credit" | "debit" | "refund" | "interest" | "adjustment" | "staff" | "reversal";
                /**
                 * @description as `type` (the Transaction shape's name)
                 * @enum {string}
                 */
                transactionType: "credit" | "debit";
                /** Format: uuid */
                transferId?: string;
                /** @enum {string} */
                type: "credit" | "debit";
            }[];
        };
        Transaction: {
            /** Format: uuid */
            _id: string;
            /** @enum {string} */
            account: "savings" | "checking";
            /** @description dollars */
            amount: number;
            /** @description dollars */
            balanceAfter: number;
            /** Format: date-time */
            date: string;
            description: string;
            /**
             * @description the debit or refund of a transfer to another bank (sent by ACH); absent otherwise
             * @constant
             */
            external?: true;
            /** @enum {string} */
            status: "completed" | "pending" | "failed" | "reversed";
            /** @enum {string} */
            transactionType: "debit" | "credit";
            /** Format: uuid */
            transferId?: string;
        };
        TrialBalance: {
            accounts: components["schemas"]["LedgerAccount"][];
            /** Format: date-time */
            at: string;
            balanced: boolean;
            /** @description dollars */
            totalCredits: number;
            /** @description dollars */
            totalDebits: number;
        };
        User: {
            /** Format: uuid */
            _id: string;
            account: {
                /** @description dollars */
                checking: number;
                number: string;
                /** @description dollars */
                savings: number;
            };
            /** Format: date-time */
            createdAt: string;
            email: string;
            emailVerified?: boolean;
            firstName: string;
            hasPaymentPin: boolean;
            isAdmin: boolean;
            isBlocked: boolean;
            isDisabled: boolean;
            lastName: string;
            location: {
                address: string;
                state: string;
            };
            phone: string;
            profilePicture: {
                url: string;
            } | null;
            /** @enum {string} */
            role: "customer" | "admin" | "auditor";
            verification: {
                documentBack: {
                    url: string;
                };
                documentFront: {
                    url: string;
                };
                documentType: string;
            } | null;
            /** @enum {string} */
            verificationStatus: "awaiting" | "pending" | "verified" | "failed";
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
