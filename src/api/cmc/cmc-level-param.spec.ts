import { ApiError } from '../http/api-error';
import { cmcLevelParam } from './cmc-level-param';

describe('cmcLevelParam', () => {
  it('serves level 3 as level 2, the finest book the exchange publishes', () => {
    expect(cmcLevelParam(undefined)).toBe(2);
    expect(cmcLevelParam('1')).toBe(1);
    expect(cmcLevelParam('2')).toBe(2);
    expect(cmcLevelParam('3')).toBe(2);
  });

  it.each(['0', '4', 'L3'])('refuses %j, naming the three levels', (value) => {
    expect(() => cmcLevelParam(value)).toThrow(
      new ApiError(
        400,
        'invalid_level',
        'level must be 1 (best bid and ask), 2 (every price level) or 3 (every price level, ' +
          `the finest book the exchange publishes), got ${JSON.stringify(value)}`,
      ),
    );
  });
});
