import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { formatMoney } from '../../components/money';
import type { AuditEvent } from './auditTypes';
import { actorLabel, formatInstant } from './auditFormat';

type Account = 'savings' | 'checking';

export interface ChartPoint {
  readonly account: Account;
  readonly time: number;
  readonly value: number;
  readonly event: AuditEvent;
}

const ACCOUNTS: readonly { key: Account; label: string; className: string }[] = [
  { key: 'savings', label: 'Savings', className: 'audit-chart-savings' },
  { key: 'checking', label: 'Checking', className: 'audit-chart-checking' },
];

/** The steps of each balance: its value after every event that moved it, starting at zero with the first event. */
export function balanceSteps(events: readonly AuditEvent[]): Record<Account, ChartPoint[]> {
  const series: Record<Account, ChartPoint[]> = { savings: [], checking: [] };
  const first = events[0];
  if (!first) return series;
  for (const { key } of ACCOUNTS) series[key].push({ account: key, time: Date.parse(first.time), value: 0, event: first });
  for (const event of events) {
    for (const { key } of ACCOUNTS) {
      if (event.changes.some((change) => change.field === key)) {
        series[key].push({ account: key, time: Date.parse(event.time), value: event.balances[key], event });
      }
    }
  }
  return series;
}

function useWidth(fallback = 640) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const next = Math.floor(entries[0]?.contentRect.width ?? 0);
      if (next > 0) setWidth(next);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/** A round upper bound for the y axis. */
function niceMax(value: number): number {
  if (value <= 0) return 100;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((factor) => factor * magnitude >= value) ?? 10;
  return step * magnitude;
}

const compactMoney = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1 });
const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

export interface BalanceChartProps {
  events: readonly AuditEvent[];
  /** Enter (or a click) on a step: e.g. show the balances as of that event. */
  onSelect?: (event: AuditEvent) => void;
}

/**
 * Each balance over time as an SVG step line. Every step is a point that hovering or focusing explains (a tooltip
 * the point names with aria-describedby). Keyboard: Tab reaches each line's current point, arrow keys move along
 * the line, Home/End jump to its ends, Enter selects, Escape hides the tooltip.
 */
export function BalanceChart({ events, onSelect }: BalanceChartProps) {
  const [containerRef, width] = useWidth();
  const tooltipId = useId();
  const series = useMemo(() => balanceSteps(events), [events]);
  const [active, setActive] = useState<{ account: Account; index: number } | null>(null);
  const [cursor, setCursor] = useState<Record<Account, number>>({ savings: 0, checking: 0 });
  const pointRefs = useRef(new Map<string, SVGCircleElement>());

  const height = width < 480 ? 220 : 280;
  const pad = { top: 16, right: 16, bottom: 32, left: width < 480 ? 52 : 64 };
  const plotW = Math.max(10, width - pad.left - pad.right);
  const plotH = height - pad.top - pad.bottom;
  const all = [...series.savings, ...series.checking];
  const tMin = Math.min(...all.map((p) => p.time));
  const tLast = Math.max(...all.map((p) => p.time));
  const tMax = tLast > tMin ? tLast : tMin + 1000;
  const vMax = niceMax(Math.max(0, ...all.map((p) => p.value)));
  const x = (t: number) => pad.left + ((t - tMin) / (tMax - tMin)) * plotW;
  const y = (v: number) => pad.top + plotH - (v / vMax) * plotH;

  if (all.length === 0) return null;

  const focusPoint = (account: Account, index: number) => {
    const points = series[account];
    const clamped = Math.max(0, Math.min(points.length - 1, index));
    setCursor((current) => ({ ...current, [account]: clamped }));
    pointRefs.current.get(`${account}:${clamped}`)?.focus();
  };

  const onKeyDown = (account: Account, index: number) => (event: KeyboardEvent<SVGCircleElement>) => {
    const last = series[account].length - 1;
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowDown: index + 1, ArrowLeft: index - 1, ArrowUp: index - 1, Home: 0, End: last };
    const target = moves[event.key];
    if (target !== undefined) {
      event.preventDefault();
      focusPoint(account, target);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      const point = series[account][index];
      if (point) onSelect?.(point.event);
    } else if (event.key === 'Escape') {
      setActive(null);
    }
  };

  const activePoint = active ? series[active.account][active.index] : undefined;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * vMax);
  const timeTicks = width < 480 ? [tMin, tMax] : [tMin, tMin + (tMax - tMin) / 2, tMax];

  return (
    <div className="audit-chart" ref={containerRef}>
      <ul className="audit-chart-legend" aria-label="Legend">
        {ACCOUNTS.map(({ key, label, className }) => (
          <li key={key} className={className}>
            <span className="audit-chart-swatch" aria-hidden="true" /> {label}
          </li>
        ))}
      </ul>
      <svg width={width} height={height} role="group" aria-label="Balances over time" className="audit-chart-svg">
        <desc>
          Step lines of the savings and checking balances after each event. Use the arrow keys on a line to move between its
          steps.
        </desc>
        <g aria-hidden="true" className="audit-chart-axes">
          {ticks.map((tick) => (
            <g key={tick}>
              <line x1={pad.left} x2={pad.left + plotW} y1={y(tick)} y2={y(tick)} className="audit-chart-grid" />
              <text x={pad.left - 6} y={y(tick)} dy="0.32em" textAnchor="end">
                {compactMoney.format(tick)}
              </text>
            </g>
          ))}
          {timeTicks.map((tick, i) => (
            <text key={tick} x={x(tick)} y={height - 8} textAnchor={i === 0 ? 'start' : i === timeTicks.length - 1 ? 'end' : 'middle'}>
              {shortDate.format(new Date(tick))}
            </text>
          ))}
        </g>
        {ACCOUNTS.map(({ key, label, className }) => {
          const points = series[key];
          const first = points[0];
          if (!first) return null;
          const path = points.reduce(
            (d, p, i) => (i === 0 ? `M${x(p.time)},${y(p.value)}` : `${d}H${x(p.time)}V${y(p.value)}`),
            '',
          );
          return (
            <g key={key} className={className} role="group" aria-label={`${label} balance, ${points.length} steps`}>
              <path d={`${path}H${pad.left + plotW}`} className="audit-chart-line" aria-hidden="true" />
              {points.map((point, index) => {
                const isActive = active?.account === key && active.index === index;
                return (
                  <circle
                    key={`${point.event.id}-${index}`}
                    ref={(element) => {
                      if (element) pointRefs.current.set(`${key}:${index}`, element);
                      else pointRefs.current.delete(`${key}:${index}`);
                    }}
                    cx={x(point.time)}
                    cy={y(point.value)}
                    r={isActive ? 7 : 5}
                    className="audit-chart-point"
                    tabIndex={cursor[key] === index ? 0 : -1}
                    role="img"
                    aria-label={`${label} ${formatMoney(point.value)} on ${formatInstant(point.event.time)}`}
                    aria-describedby={isActive ? tooltipId : undefined}
                    onFocus={() => {
                      setCursor((current) => ({ ...current, [key]: index }));
                      setActive({ account: key, index });
                    }}
                    onBlur={() => setActive((current) => (current?.account === key && current.index === index ? null : current))}
                    onMouseEnter={() => setActive({ account: key, index })}
                    onMouseLeave={() => setActive((current) => (current?.account === key && current.index === index ? null : current))}
                    onClick={() => onSelect?.(point.event)}
                    onKeyDown={onKeyDown(key, index)}
                  />
                );
              })}
            </g>
          );
        })}
      </svg>
      {activePoint ? (
        <div
          id={tooltipId}
          role="tooltip"
          className="audit-chart-tooltip"
          style={{
            left: Math.min(Math.max(x(activePoint.time), 90), width - 90),
            top: y(activePoint.value),
          }}
        >
          <strong>
            {activePoint.account === 'savings' ? 'Savings' : 'Checking'} {formatMoney(activePoint.value)}
          </strong>
          <span>{formatInstant(activePoint.event.time)}</span>
          <span>
            {activePoint.event.type} by {actorLabel(activePoint.event.actor)}
          </span>
          <span>{activePoint.event.summary}</span>
        </div>
      ) : null}
    </div>
  );
}
