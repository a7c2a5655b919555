import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { failOnConsoleError } from './testing/failOnConsoleError';
import { Tabs } from './Tabs';

const tabs = [
  { id: 'one', label: 'One', content: <p>First panel</p> },
  { id: 'two', label: 'Two', content: <p>Second panel</p> },
  { id: 'three', label: 'Three', content: <p>Third panel</p> },
];

describe('Tabs', () => {
  failOnConsoleError();

  it('links tabs and panels and shows only the selected panel', () => {
    render(<Tabs label="Numbers" tabs={tabs} />);
    expect(screen.getByRole('tablist', { name: 'Numbers' })).toBeInTheDocument();
    const first = screen.getByRole('tab', { name: 'One' });
    expect(first).toHaveAttribute('aria-selected', 'true');
    expect(first).toHaveAttribute('tabindex', '0');
    expect(screen.getByRole('tab', { name: 'Two' })).toHaveAttribute('tabindex', '-1');
    const panel = screen.getByRole('tabpanel', { name: 'One' });
    expect(panel).toHaveTextContent('First panel');
    expect(first).toHaveAttribute('aria-controls', panel.id);
    expect(screen.getByText('Second panel').closest('[role="tabpanel"]')).not.toBeVisible();
  });

  it('selects with a click and moves with the arrow, Home and End keys', async () => {
    render(<Tabs label="Numbers" tabs={tabs} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Two' }));
    expect(screen.getByRole('tabpanel', { name: 'Two' })).toHaveTextContent('Second panel');

    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Three' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Three' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'One' })).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Three' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('tab', { name: 'One' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Three' })).toHaveAttribute('aria-selected', 'true');
    await user.tab();
    expect(screen.getByRole('tabpanel', { name: 'Three' })).toHaveFocus();
  });
});
