// A test Ethereum account and the EIP-191 personal_sign of a browser wallet, so the
// e2e run can play an injected EIP-1193 provider (window.ethereum) without an extension.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';

function checksum(lowerHex) {
  const hash = bytesToHex(keccak_256(utf8ToBytes(lowerHex)));
  let out = '0x';
  for (let i = 0; i < lowerHex.length; i++) out += parseInt(hash[i], 16) >= 8 ? lowerHex[i].toUpperCase() : lowerHex[i];
  return out;
}

export function addressOf(publicKeyUncompressed) {
  return checksum(bytesToHex(keccak_256(publicKeyUncompressed.slice(1)).slice(-20)));
}

/** keccak256("\x19Ethereum Signed Message:\n" + len + message) */
export function personalMessageHash(messageBytes) {
  const prefix = utf8ToBytes(`\x19Ethereum Signed Message:\n${messageBytes.length}`);
  const all = new Uint8Array(prefix.length + messageBytes.length);
  all.set(prefix);
  all.set(messageBytes, prefix.length);
  return keccak_256(all);
}

/** personal_sign's first parameter: 0x-hex of the UTF-8 bytes, or plain text. */
export function messageBytesOf(param) {
  return /^0x([0-9a-f]{2})*$/i.test(param) ? hexToBytes(param.slice(2)) : utf8ToBytes(param);
}

export function createTestWallet() {
  const secretKey = secp256k1.utils.randomSecretKey();
  const address = addressOf(secp256k1.getPublicKey(secretKey, false));
  return {
    address,
    /** Signs like MetaMask: 65 bytes r || s || v with v = 27 + recovery id. */
    personalSign(param) {
      const rec = secp256k1.sign(personalMessageHash(messageBytesOf(param)), secretKey, { prehash: false, format: 'recovered' });
      return `0x${bytesToHex(rec.slice(1))}${(27 + rec[0]).toString(16)}`;
    },
  };
}

/** The address that signed `message` (text) into `signature` (0x r||s||v). */
export function recoverSigner(message, signature) {
  const sig = hexToBytes(signature.replace(/^0x/, ''));
  const v = sig[64] >= 27 ? sig[64] - 27 : sig[64];
  const recovered = new Uint8Array(65);
  recovered[0] = v;
  recovered.set(sig.slice(0, 64), 1);
  const publicKey = secp256k1.recoverPublicKey(recovered, personalMessageHash(utf8ToBytes(message)), { prehash: false });
  return addressOf(secp256k1.Point.fromBytes(publicKey).toBytes(false));
}
