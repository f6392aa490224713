// Sign-In with Ethereum (EIP-4361) against an injected EIP-1193 provider (window.ethereum).
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export interface Eip1193Provider {
  request: (args: { method: string; params?: unknown[] }) => Promise<unknown>;
}

declare global {
  interface Window {
    ethereum?: Eip1193Provider;
  }
}

export function getInjectedProvider(): Eip1193Provider | null {
  const eth = typeof window !== 'undefined' ? window.ethereum : undefined;
  return eth && typeof eth.request === 'function' ? eth : null;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** EIP-55 mixed-case checksum of an address. */
export function toChecksumAddress(address: string): string {
  if (!ADDRESS.test(address)) throw new Error('Invalid Ethereum address');
  const lower = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    out += parseInt(hash[i], 16) >= 8 ? lower[i].toUpperCase() : lower[i];
  }
  return out;
}

/** Keeps a provider's mixed-case address as given; checksums an all-lower/upper one. */
export function normaliseAddress(address: string): string {
  if (!ADDRESS.test(address)) throw new Error('Invalid Ethereum address');
  const body = address.slice(2);
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  return mixed ? address : toChecksumAddress(address);
}

export interface SiweFields {
  domain: string;
  address: string;
  statement: string;
  uri: string;
  chainId: number;
  nonce: string;
  issuedAt: string;
}

export function buildSiweMessage(f: SiweFields): string {
  return [
    `${f.domain} wants you to sign in with your Ethereum account:`,
    f.address,
    '',
    f.statement,
    '',
    `URI: ${f.uri}`,
    'Version: 1',
    `Chain ID: ${f.chainId}`,
    `Nonce: ${f.nonce}`,
    `Issued At: ${f.issuedAt}`,
  ].join('\n');
}

export function parseChainId(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  if (typeof value === 'string') {
    const n = value.startsWith('0x') ? parseInt(value, 16) : parseInt(value, 10);
    if (Number.isInteger(n) && n > 0) return n;
  }
  return 1;
}

export function utf8ToHex(text: string): string {
  return `0x${bytesToHex(utf8ToBytes(text))}`;
}

export const SIWE_STATEMENT = 'Sign in to Quire';

/**
 * Asks the wallet for an account and a signature over a fresh SIWE message.
 * `nonce` comes from GET /api/login/nonce.
 */
export async function signInWithEthereum(
  provider: Eip1193Provider,
  getNonce: () => Promise<string>,
  now: () => Date = () => new Date(),
): Promise<{ message: string; signature: string; address: string }> {
  const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as string[];
  if (!Array.isArray(accounts) || accounts.length === 0) throw new Error('The wallet shared no account');
  const address = normaliseAddress(accounts[0]);
  let chainId = 1;
  try {
    chainId = parseChainId(await provider.request({ method: 'eth_chainId' }));
  } catch {
    chainId = 1;
  }
  const nonce = await getNonce();
  const message = buildSiweMessage({
    domain: window.location.host,
    address,
    statement: SIWE_STATEMENT,
    uri: window.location.origin,
    chainId,
    nonce,
    issuedAt: now().toISOString(),
  });
  const signature = (await provider.request({ method: 'personal_sign', params: [utf8ToHex(message), address] })) as string;
  if (typeof signature !== 'string' || !signature) throw new Error('The wallet returned no signature');
  return { message, signature, address };
}

/** Wallet errors carry EIP-1193 codes; 4001 is the user saying no. */
export function walletErrorMessage(error: unknown): string {
  const e = error as { code?: number; message?: string } | null;
  if (e?.code === 4001) return 'You declined the request in your wallet';
  if (e?.code === -32002) return 'Your wallet already has a pending request: open it to continue';
  return e?.message || 'The wallet could not sign in';
}
