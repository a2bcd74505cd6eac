import { Gauge, Registry } from 'prom-client';
import { BudgetUsage, RequestBudget } from './request-budget';

/**
 * The REST budget in `/metrics`: per family the limit, the requests the exchange may be counting
 * (every replica's while the budget is shared in Redis) and this process's callers waiting.
 */
export function registerRequestBudgetMetrics(registry: Registry, budget: RequestBudget): void {
  // One read of the budget per scrape, shared by the three gauges.
  let reading: Promise<readonly BudgetUsage[]> | undefined;
  const read = (): Promise<readonly BudgetUsage[]> => {
    reading ??= budget.usage().finally(() => setImmediate(() => (reading = undefined)));
    return reading;
  };
  const gauge = (name: string, help: string, figure: (usage: BudgetUsage) => number): void => {
    new Gauge({
      name,
      help,
      labelNames: ['family'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const usage of await read()) this.set({ family: usage.family }, figure(usage));
      },
    });
  };
  gauge(
    'mdg_rest_budget_limit',
    'REST requests the exchange admits per second, per path family.',
    (u) => u.limit,
  );
  gauge(
    'mdg_rest_budget_counting',
    "REST requests the exchange may be counting now (running or ended within its window): every replica's while the budget is shared in Redis, else this process's.",
    (u) => u.counting,
  );
  gauge('mdg_rest_budget_waiting', "This process's REST requests waiting for the budget.", (u) => u.waiting);
}
