import { api } from '../../lib/api/apiClient';

export interface ContactMessageInput {
  name: string;
  email: string;
  phone: string;
  subject: string;
  message: string;
  /** The hidden bot-check field: people leave it empty; the server stores nothing when it is filled. */
  website: string;
}

/** POST /api/contacts. Empty optional fields are left out. */
export async function sendContactMessage(input: ContactMessageInput): Promise<{ message?: string }> {
  const body = {
    name: input.name.trim(),
    email: input.email.trim(),
    phone: input.phone.trim() || undefined,
    subject: input.subject.trim() || undefined,
    message: input.message.trim(),
    website: input.website,
  };
  return api.post<{ message?: string }>('/contacts', body);
}
