import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  Email,
  FilePath,
  Flag,
  Format,
  Identifier,
  Integer,
  Milliseconds,
  OneOf,
  Port,
  Text,
  Url,
} from './setting-rules';

/** The value `text` parses to under `rule`, and the distinct messages its checks give. */
function check(rule: PropertyDecorator, text: string): { value: unknown; messages: string[] } {
  class Settings {
    value?: unknown;
  }
  rule(Settings.prototype, 'value');
  const settings = plainToInstance(Settings, { value: text });
  const messages = validateSync(settings).flatMap((error) => Object.values(error.constraints ?? {}));
  return { value: settings.value, messages: [...new Set(messages)] };
}

describe('setting rules', () => {
  it('Milliseconds: an integer within the bounds, parsed from text', () => {
    const rule = Milliseconds({ min: 100, max: 600_000 });
    expect(check(rule, '250')).toEqual({ value: 250, messages: [] });
    const message = 'must be an integer number of milliseconds from 100 to 600000';
    for (const bad of ['99', '600001', '1.5', 'soon']) expect(check(rule, bad).messages).toEqual([message]);
    expect(check(Milliseconds({ min: 1_000 }), '10').messages).toEqual([
      'must be an integer number of milliseconds, 1000 or more',
    ]);
  });

  it('Port: 0 to 65535', () => {
    expect(check(Port(), '8080')).toEqual({ value: 8080, messages: [] });
    expect(check(Port(), '65536').messages).toEqual(['must be an integer port number from 0 to 65535']);
  });

  it('Integer: a whole number within the bounds', () => {
    expect(check(Integer({ min: 1, max: 100_000 }), '1000')).toEqual({ value: 1000, messages: [] });
    expect(check(Integer({ min: 1, max: 100_000 }), '0').messages).toEqual([
      'must be an integer from 1 to 100000',
    ]);
    expect(check(Integer({ min: 0 }), '-1').messages).toEqual(['must be an integer, 0 or more']);
  });

  it('Flag: true or false, also 1 or 0, in any case', () => {
    expect(check(Flag(), 'TRUE')).toEqual({ value: true, messages: [] });
    expect(check(Flag(), '0')).toEqual({ value: false, messages: [] });
    expect(check(Flag(), 'maybe').messages).toEqual(['must be true or false']);
  });

  it('OneOf: one of the values, exactly', () => {
    expect(check(OneOf(['hub', 'gateway']), 'gateway').messages).toEqual([]);
    expect(check(OneOf(['hub', 'gateway']), 'Hub').messages).toEqual(['must be one of hub, gateway']);
  });

  it('Url: an absolute URL with one of the schemes, host without a dot allowed', () => {
    const rule = Url(['redis', 'rediss']);
    expect(check(rule, 'redis://redis:6379').messages).toEqual([]);
    for (const bad of ['http://redis:6379', 'redis:6379']) {
      expect(check(rule, bad).messages).toEqual(['must be a URL starting with redis:// or rediss://']);
    }
    expect(check(Url(['ws', 'wss', 'http']), 'x').messages).toEqual([
      'must be a URL starting with ws://, wss:// or http://',
    ]);
  });

  it('Email: an address', () => {
    expect(check(Email(), 'api@exchange.example').messages).toEqual([]);
    for (const bad of ['api', 'api@', 'https://exchange.example']) {
      expect(check(Email(), bad).messages).toEqual(['must be an email address such as api@exchange.example']);
    }
  });

  it('Identifier: letters, digits and the given punctuation, up to the length', () => {
    const rule = Identifier(8, '_.-');
    expect(check(rule, 'a_b.c-9').messages).toEqual([]);
    const message = 'must be 1-8 letters, digits, _ . or -';
    for (const bad of ['a:b', 'a b', 'abcdefghi', 'a]b'])
      expect(check(rule, bad).messages).toEqual([message]);
  });

  it('Format: text matching the pattern, described', () => {
    const rule = Format(/^\d+(,\d+)*$/, 'comma-separated numbers');
    expect(check(rule, '1,2').messages).toEqual([]);
    expect(check(rule, '1;2').messages).toEqual(['must be comma-separated numbers']);
  });

  it('Text: at least one character', () => {
    expect(check(Text(), 'bot@example.com').messages).toEqual([]);
    expect(check(Text(), '').messages).toEqual(['must be non-empty text']);
  });

  it('FilePath: text', () => {
    expect(check(FilePath(), '/run/secrets/password').messages).toEqual([]);
    class Settings {
      value: unknown = 42;
    }
    FilePath()(Settings.prototype, 'value');
    const messages = validateSync(new Settings()).flatMap((error) => Object.values(error.constraints ?? {}));
    expect(messages).toEqual(['must be a file path']);
  });
});
