// The audit log of admin actions, merged across services, newest first: who, what, when,
// before -> after; "Load older" pages back through the whole log. A broken hash chain (an
// entry changed or removed behind the services' back) is a warning no one can miss.
import { Button } from '@/components/Button';
import { Card, CardHeader, EmptyState } from '@/components/Card';
import { formatDateTime, relativeTime } from '@/lib/dates';
import { actionText, shortId, targetText, valueText } from '../audit-format';
import { useAuditLog } from '../queries';
import type { AuditEntry } from '../types';

export function AuditLog({ limit }: { limit?: number }) {
  const log = useAuditLog(limit);
  const pages = log.data?.pages ?? [];
  const entries = pages.flatMap((p) => p?.entries ?? []);
  const broken = pages.some((p) => p && p.chain_intact === false);
  const unavailable = [...new Set(pages.flatMap((p) => p?.unavailable ?? []))];

  return (
    <Card data-testid="audit-log">
      <CardHeader title="Audit log" subtitle="Every admin action, newest first." />
      {broken ? (
        <div className="notice notice-error" role="alert" data-testid="audit-broken">
          <p className="notice-title">The audit log's chain is broken</p>
          <p>An entry no longer matches the hash chain written with it: it was changed or removed outside Quire. Investigate before trusting this log.</p>
        </div>
      ) : null}
      {unavailable.length ? (
        <p className="notice notice-warning" role="status" data-testid="audit-unavailable">
          Entries from {unavailable.join(', ')} are unavailable right now.
        </p>
      ) : null}
      {log.isLoading ? (
        <div aria-busy="true">
          <span className="visually-hidden" role="status">
            Loading the audit log
          </span>
          {Array.from({ length: 4 }, (_, i) => (
            <div key={i} className="admin-skeleton admin-skeleton-line" aria-hidden />
          ))}
        </div>
      ) : log.isError && entries.length === 0 ? (
        <EmptyState icon="alert" title="The audit log could not be loaded">
          <Button variant="secondary" size="sm" onClick={() => void log.refetch()}>
            Try again
          </Button>
        </EmptyState>
      ) : entries.length === 0 ? (
        <EmptyState icon="shield" title="No admin actions yet" />
      ) : (
        <ol className="audit-list" aria-label="Audit entries">
          {entries.map((e) => (
            <Entry key={`${e.service}-${e.id}`} entry={e} />
          ))}
        </ol>
      )}
      {log.hasNextPage ? (
        <div className="audit-more">
          <Button variant="secondary" size="sm" loading={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
            Load older
          </Button>
        </div>
      ) : null}
    </Card>
  );
}

function Entry({ entry }: { entry: AuditEntry }) {
  return (
    <li className="audit-entry" data-testid="audit-entry">
      <span className="audit-what">
        {actionText(entry.action)} <span className="muted">· {targetText(entry.target)}</span>
      </span>
      <time className="audit-when" dateTime={entry.at} title={formatDateTime(entry.at)}>
        {relativeTime(entry.at) || formatDateTime(entry.at)}
      </time>
      <span className="audit-meta">
        by admin <span className="mono" title={entry.actor_id}>{shortId(entry.actor_id)}</span> · {entry.service} · {formatDateTime(entry.at)}
      </span>
      <span className="audit-change" data-testid="audit-change">
        <span className="audit-value" aria-label="Before">
          {valueText(entry.before)}
        </span>
        <span aria-hidden> → </span>
        <span className="audit-value" aria-label="After">
          {valueText(entry.after)}
        </span>
      </span>
    </li>
  );
}
