import { acceptsMedia } from './accepted-media';

const JSON_TYPE = 'application/json';

describe('acceptsMedia', () => {
  it.each([
    undefined,
    '',
    '*/*',
    'application/*',
    'application/json',
    'Application/JSON',
    'application/json; charset=utf-8',
    'application/json;q=0.001',
    'text/html, application/json;q=0.5',
    'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'application/xml;q=0, */*',
  ])('takes JSON for %j', (header) => {
    expect(acceptsMedia(header, JSON_TYPE)).toBe(true);
  });

  it.each([
    'application/xml',
    'text/html',
    'text/*',
    'application/json;q=0',
    'application/json;q=0.0, */*',
    'application/*;q=0, */*;q=1',
    'json',
  ])('refuses JSON for %j', (header) => {
    expect(acceptsMedia(header, JSON_TYPE)).toBe(false);
  });

  it('judges each media type on its own', () => {
    const prometheus =
      'application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.3,*/*;q=0.1';
    expect(acceptsMedia(prometheus, 'text/plain')).toBe(true);
    expect(acceptsMedia('application/json', 'text/plain')).toBe(false);
    expect(acceptsMedia('text/html', 'text/html')).toBe(true);
  });
});
