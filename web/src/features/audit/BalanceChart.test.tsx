import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { BalanceChart, balanceSteps } from './BalanceChart';
import { sampleEvents } from './auditTestUtils';

describe('the balance chart', () => {
  it('has one step per event that moved each balance, starting at zero', () => {
    const steps = balanceSteps(sampleEvents());
    expect(steps.savings.map((p) => [p.value, p.event.type])).toEqual([
      [0, 'CustomerRegistered'],
      [500, 'BalanceAdjusted'],
      [475, 'AccountDebited'],
    ]);
    expect(steps.checking.map((p) => p.value)).toEqual([0, 120]);
  });

  it('draws a step line per balance in SVG', () => {
    const { container } = render(<BalanceChart events={sampleEvents()} />);
    const paths = container.querySelectorAll('path.audit-chart-line');
    expect(paths).toHaveLength(2);
    expect(paths[0]!.getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+H[\d.]+V[\d.]+H[\d.]+V[\d.]+H[\d.]+$/);
    expect(screen.getByRole('group', { name: 'Savings balance, 3 steps' })).toBeInTheDocument();
  });

  it('explains a step on hover with a tooltip the step points to', async () => {
    render(<BalanceChart events={sampleEvents()} />);
    const step = screen.getByRole('img', { name: /^Savings \$500\.00/ });
    fireEvent.mouseEnter(step);
    const tooltip = screen.getByRole('tooltip');
    expect(tooltip).toHaveTextContent('BalanceAdjusted by admin a0000000');
    expect(tooltip).toHaveTextContent('Balance of savings set $0.00 → $500.00');
    expect(step).toHaveAttribute('aria-describedby', tooltip.id);
    fireEvent.mouseLeave(step);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('is usable from the keyboard: one tab stop per line, arrows move, Enter selects', async () => {
    const onSelect = vi.fn();
    render(
      <>
        <button type="button">before</button>
        <BalanceChart events={sampleEvents()} onSelect={onSelect} />
      </>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'before' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('img', { name: /^Savings \$0\.00/ }));
    expect(screen.getByRole('tooltip')).toHaveTextContent('CustomerRegistered');
    await user.keyboard('{ArrowRight}');
    const second = screen.getByRole('img', { name: /^Savings \$500\.00/ });
    expect(document.activeElement).toBe(second);
    expect(second).toHaveAccessibleDescription(/BalanceAdjusted/);
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('img', { name: /^Savings \$475\.00/ }));
    await user.keyboard('{Enter}');
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ type: 'AccountDebited' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('img', { name: /^Checking \$0\.00/ }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
