import { describe, expect, it, vi } from 'vitest';
import { buildSiweMessage, normaliseAddress, parseChainId, signInWithEthereum, toChecksumAddress, utf8ToHex } from '@/features/auth/siwe';

// Test vectors from EIP-55.
const VECTORS = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];

describe('EIP-55', () => {
  it.each(VECTORS)('checksums %s', (address) => {
    expect(toChecksumAddress(address.toLowerCase())).toBe(address);
    expect(normaliseAddress(address.toLowerCase())).toBe(address);
    expect(normaliseAddress(address)).toBe(address);
  });

  it('rejects what is not an address', () => {
    expect(() => toChecksumAddress('0x123')).toThrow();
  });
});

describe('SIWE message', () => {
  it('follows EIP-4361', () => {
    const message = buildSiweMessage({
      domain: 'quire.example:8080',
      address: VECTORS[0],
      statement: 'Sign in to Quire',
      uri: 'https://quire.example:8080',
      chainId: 1,
      nonce: 'abc123XYZ',
      issuedAt: '2026-01-02T03:04:05.000Z',
    });
    expect(message).toBe(
      [
        'quire.example:8080 wants you to sign in with your Ethereum account:',
        VECTORS[0],
        '',
        'Sign in to Quire',
        '',
        'URI: https://quire.example:8080',
        'Version: 1',
        'Chain ID: 1',
        'Nonce: abc123XYZ',
        'Issued At: 2026-01-02T03:04:05.000Z',
      ].join('\n'),
    );
  });

  it('reads chain ids as hex or decimal, defaulting to 1', () => {
    expect(parseChainId('0x89')).toBe(137);
    expect(parseChainId('10')).toBe(10);
    expect(parseChainId(undefined)).toBe(1);
  });

  it('asks the provider for an account, the chain and a personal_sign', async () => {
    const calls: { method: string; params?: unknown[] }[] = [];
    const provider = {
      request: vi.fn(async (args: { method: string; params?: unknown[] }) => {
        calls.push(args);
        if (args.method === 'eth_requestAccounts') return [VECTORS[1].toLowerCase()];
        if (args.method === 'eth_chainId') return '0x5';
        if (args.method === 'personal_sign') return '0xsig';
        throw new Error('unexpected');
      }),
    };
    const out = await signInWithEthereum(provider, async () => 'nonce42', () => new Date('2026-01-01T00:00:00Z'));
    expect(out.address).toBe(VECTORS[1]);
    expect(out.signature).toBe('0xsig');
    expect(out.message).toContain(`${window.location.host} wants you to sign in`);
    expect(out.message).toContain('Chain ID: 5');
    expect(out.message).toContain('Nonce: nonce42');
    expect(out.message).toContain(`URI: ${window.location.origin}`);
    const sign = calls.find((c) => c.method === 'personal_sign');
    expect(sign?.params).toEqual([utf8ToHex(out.message), VECTORS[1]]);
  });
});
