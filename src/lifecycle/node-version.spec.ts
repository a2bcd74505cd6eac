import { nodeVersionProblem } from './node-version';

describe('nodeVersionProblem', () => {
  it('accepts Node.js 24 and later', () => {
    expect(nodeVersionProblem('v24.21.0')).toBeUndefined();
    expect(nodeVersionProblem('v25.1.0')).toBeUndefined();
  });

  it('names the release it refuses and the one required', () => {
    expect(nodeVersionProblem('v20.20.2')).toBe('Node.js 24 or later is required; this is v20.20.2');
    expect(nodeVersionProblem('v22.0.0')).toBe('Node.js 24 or later is required; this is v22.0.0');
    expect(nodeVersionProblem('nonsense')).toBe('Node.js 24 or later is required; this is nonsense');
  });
});
