import { useMutation } from '@tanstack/react-query';
import { leaveAppFor } from '../../browser/leaveAppFor';
import { api } from '../apiClient';

/** Where the API serves the BullMQ dashboard (beside the API when VITE_API_URL points elsewhere). */
export const QUEUE_DASHBOARD_URL = `${(import.meta.env.VITE_API_URL as string | undefined)?.replace(/\/$/, '') ?? '/api'}/admin/queues`;

/**
 * Opens the queue dashboard: POST /api/admin/queues/session with the admin's bearer token sets a short-lived cookie
 * scoped to the dashboard (a browser cannot send the bearer header when it navigates), then the browser goes there.
 */
export function useOpenQueueDashboard() {
  return useMutation({
    mutationFn: () => api.post<{ message?: string; data: { url: string; expiresAt: string } }>('/admin/queues/session'),
    onSuccess: () => leaveAppFor(QUEUE_DASHBOARD_URL),
  });
}
