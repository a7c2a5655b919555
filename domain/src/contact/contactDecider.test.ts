import { describe, it } from 'vitest';
import { deciderSpecification, refused } from '../testing/deciderSpecification';
import { ADMIN_ID, NOW, uuid } from '../testing/fixtures';
import { contactMessageDecider } from './contactDecider';
import type { ContactEvent } from './contactDecider';

const { given } = deciderSpecification(contactMessageDecider);
const receive = { type: 'ReceiveContactMessage', contactId: uuid(30), name: 'Grace', email: 'Grace@Example.com', message: 'Hello', now: NOW } as const;
const received: ContactEvent = {
  type: 'ContactMessageReceived',
  data: { contactId: uuid(30), name: 'Grace', email: 'grace@example.com', phone: '', subject: '', message: 'Hello', receivedAt: NOW },
};

describe('contact messages', () => {
  it('receives a message; phone and subject default to empty', () => {
    given([]).when(receive).then([received]);
  });

  it('keeps phone and subject when given', () => {
    given([])
      .when({ ...receive, phone: '555', subject: 'Card' })
      .then([{ type: 'ContactMessageReceived', data: { ...received.data, phone: '555', subject: 'Card' } }]);
  });

  it('refuses a message without name, e-mail or text', () => {
    given([]).when({ ...receive, message: ' ' }).then(refused('all_fields_required', 'All fields are required'));
  });

  it('is deleted by an admin', () => {
    given([received]).when({ type: 'DeleteContactMessage', adminId: ADMIN_ID, now: NOW }).then([{ type: 'ContactMessageDeleted', data: { contactId: uuid(30), adminId: ADMIN_ID, occurredAt: NOW } }]);
  });

  it('refuses to delete an unknown or deleted message (404)', () => {
    given([]).when({ type: 'DeleteContactMessage', adminId: ADMIN_ID, now: NOW }).then(refused('not_found', 'Contact message not found'));
    given([received, { type: 'ContactMessageDeleted', data: { contactId: uuid(30), adminId: ADMIN_ID, occurredAt: NOW } }])
      .when({ type: 'DeleteContactMessage', adminId: ADMIN_ID, now: NOW })
      .then(refused('not_found', 'Contact message not found'));
  });

  it('is received once', () => {
    given([received]).when(receive).then([]);
  });
});
