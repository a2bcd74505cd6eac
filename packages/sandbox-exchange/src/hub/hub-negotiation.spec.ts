import { HubNegotiation, TOKEN_LIFETIME_MS } from './hub-negotiation';

describe('HubNegotiation', () => {
  let now: number;
  let negotiation: HubNegotiation;

  beforeEach(() => {
    now = 1_000_000;
    negotiation = new HubNegotiation(() => now);
  });

  it('answers version 1 with a token and WebSockets as the only transport', () => {
    const response = negotiation.negotiate(1);
    expect(response).toEqual({
      connectionId: expect.any(String),
      connectionToken: expect.any(String),
      negotiateVersion: 1,
      availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text', 'Binary'] }],
    });
    expect(response.connectionToken).not.toBe(response.connectionId);
    expect(negotiation.negotiate(5).negotiateVersion).toBe(1);
  });

  it('answers version 0 without a token: the connection id opens the connection', () => {
    const response = negotiation.negotiate(0);
    expect(response.connectionToken).toBeUndefined();
    expect(response.negotiateVersion).toBe(0);
    expect(negotiation.claim(response.connectionId)).toBe('claimed');
  });

  it('lets a token open one connection at a time and forgets it when that connection ends', () => {
    const token = negotiation.negotiate(1).connectionToken as string;
    expect(negotiation.claim('never-issued')).toBe('unknown');
    expect(negotiation.claim(token)).toBe('claimed');
    expect(negotiation.claim(token)).toBe('in-use');
    negotiation.release(token);
    expect(negotiation.claim(token)).toBe('unknown');
  });

  it('forgets tokens that were not used in time', () => {
    const late = negotiation.negotiate(1).connectionToken as string;
    now += TOKEN_LIFETIME_MS / 2;
    const fresh = negotiation.negotiate(1).connectionToken as string;
    now += TOKEN_LIFETIME_MS / 2;
    expect(negotiation.claim(late)).toBe('unknown');
    expect(negotiation.claim(fresh)).toBe('claimed');
  });
});
