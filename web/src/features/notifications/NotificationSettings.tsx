import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { LoadingBlock } from '../../components/Spinner';
import { errorMessage } from '../../lib/api/apiError';
import { emailApi } from '../../lib/api/emailApi';
import { queryKeys } from '../../lib/api/queries/queryKeys';
import type { NotificationKind, NotificationSetting } from '../../lib/api/types';
import { useSession } from '../../lib/session/SessionContext';
import { notificationLabel } from './notificationKinds';
import './notifications.css';

type Result = { kind: 'success' | 'error'; text: string } | null;

/**
 * The e-mail notices of the signed-in customer (GET /user/notifications): each optional kind a switch saved at once
 * (PUT /user/notifications), the security notices shown as always on.
 */
export function NotificationSettings() {
  const { user } = useSession();
  const userId = user?._id ?? '';
  const queryClient = useQueryClient();
  const key = queryKeys.notifications(userId);
  const settings = useQuery({ queryKey: key, queryFn: emailApi.notifications, enabled: Boolean(userId) });
  const [result, setResult] = useState<Result>(null);
  const [saving, setSaving] = useState<NotificationKind | null>(null);

  const change = useMutation({
    mutationFn: ({ kind, enabled }: { kind: NotificationKind; enabled: boolean }) => emailApi.setNotifications({ [kind]: enabled }),
    onMutate: ({ kind }) => {
      setSaving(kind);
      setResult(null);
    },
    onSuccess: (list, { kind, enabled }) => {
      queryClient.setQueryData(key, list);
      setResult({ kind: 'success', text: `${notificationLabel(kind).label}: ${enabled ? 'on' : 'off'}. Saved.` });
    },
    onError: (error) => setResult({ kind: 'error', text: errorMessage(error) }),
    onSettled: () => setSaving(null),
  });

  if (settings.isPending && userId) return <LoadingBlock label="Loading your notification settings…" />;
  if (settings.isError) {
    return (
      <div className="portal-card">
        <Alert kind="error">{errorMessage(settings.error)}</Alert>
        <Button variant="secondary" onClick={() => void settings.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const list = settings.data ?? [];
  if (list.length === 0) return <EmptyState title="There are no e-mail notices to set up yet" />;

  const optional = list.filter((setting) => !setting.locked);
  const security = list.filter((setting) => setting.locked);
  return (
    <>
      <div aria-live="polite">{result ? <Alert kind={result.kind}>{result.text}</Alert> : null}</div>
      {optional.length > 0 ? (
        <SettingsGroup title="About your money" lead="Turn off the e-mails you do not want. Your statements and balances stay in online banking.">
          {optional.map((setting) => (
            <SettingRow
              key={setting.kind}
              setting={setting}
              saving={saving === setting.kind}
              disabled={change.isPending}
              onChange={(enabled) => change.mutate({ kind: setting.kind, enabled })}
            />
          ))}
        </SettingsGroup>
      ) : null}
      {security.length > 0 ? (
        <SettingsGroup title="Security notices" lead="We always send these, so that you hear at once if someone else gets into your account.">
          {security.map((setting) => (
            <SettingRow key={setting.kind} setting={setting} saving={false} disabled onChange={() => undefined} />
          ))}
        </SettingsGroup>
      ) : null}
    </>
  );
}

function SettingsGroup({ title, lead, children }: { title: string; lead: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="portal-card notice-group" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <p className="notice-group-lead">{lead}</p>
      <ul className="notice-list">{children}</ul>
    </section>
  );
}

function SettingRow({ setting, saving, disabled, onChange }: { setting: NotificationSetting; saving: boolean; disabled: boolean; onChange: (enabled: boolean) => void }) {
  const id = useId();
  const { label, description } = notificationLabel(setting.kind);
  const checked = setting.locked ? true : setting.enabled;
  return (
    <li className="notice-row">
      <label htmlFor={id} className="notice-text">
        <span className="notice-label">{label}</span>
        {description ? <span className="notice-description">{description}</span> : null}
      </label>
      <span className="notice-control">
        {setting.locked ? <span className="notice-always">Always on</span> : saving ? <span className="notice-saving">Saving…</span> : null}
        <input
          id={id}
          type="checkbox"
          role="switch"
          className="notice-switch"
          checked={checked}
          disabled={disabled}
          aria-describedby={setting.locked ? `${id}-locked` : undefined}
          onChange={(event) => onChange(event.target.checked)}
        />
        {setting.locked ? (
          <span id={`${id}-locked`} className="visually-hidden">
            A security notice, always sent
          </span>
        ) : null}
      </span>
    </li>
  );
}
