import { restBudgetRows } from './rest-budget-row';

describe('restBudgetRows', () => {
  it('keeps the well-formed rows of the readiness detail, and only their fields', () => {
    const row = { family: 'marketdata', limit: 2, counting: 2, waiting: 3, scope: 'deployment' };
    expect(restBudgetRows([{ ...row, extra: true }, { ...row, counting: '2' }, null, 'x'])).toEqual([row]);
  });

  it('reads anything else as no budget', () => {
    expect(restBudgetRows(undefined)).toEqual([]);
    expect(restBudgetRows({ marketdata: 2 })).toEqual([]);
  });
});
