import proxyAddr from '@fastify/proxy-addr';

/**
 * `CONSOLE_ALLOW` as a test of a client address: `*` lets every address in; otherwise the
 * addresses, CIDR ranges and named ranges (`loopback`, `linklocal`, `uniquelocal`) listed.
 */
export function consoleAllows(setting: string): (address: string) => boolean {
  const entries = setting
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.includes('*')) return () => true;
  const matches = proxyAddr.compile(entries);
  return (address) => address !== '' && matches(address, 0);
}
