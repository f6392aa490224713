// Device detection from the user agent (spec section 3, "Device info"). The phone
// variant of the product lives under /h5/.

export type DeviceType = 'desktop' | 'tablet' | 'mobile';

export interface DeviceInfo {
  isMobile: boolean;
  isTablet: boolean;
  isWechat: boolean;
  isAlipay: boolean;
  deviceType: DeviceType;
}

const TABLET = /iPad|Tablet|PlayBook|Silk|Kindle|KFAPWI|Nexus (7|9|10)|SM-T\d|Android(?!.*Mobile)/i;
const PHONE = /iPhone|iPod|Android.*Mobile|Windows Phone|IEMobile|BlackBerry|BB10|Opera Mini|webOS|Mobile Safari|Mobi/i;

/**
 * @param maxTouchPoints iPadOS reports a desktop Safari user agent; a touch screen on a
 *   "Macintosh" is how it gives itself away.
 */
export function detectDevice(userAgent: string, maxTouchPoints = 0): DeviceInfo {
  const ua = userAgent || '';
  const isWechat = /MicroMessenger/i.test(ua);
  const isAlipay = /AlipayClient|AliApp/i.test(ua);
  const isIpadOs = /Macintosh/i.test(ua) && maxTouchPoints > 1;
  const isTablet = isIpadOs || TABLET.test(ua);
  const isMobile = !isTablet && PHONE.test(ua);
  const deviceType: DeviceType = isTablet ? 'tablet' : isMobile ? 'mobile' : 'desktop';
  return { isMobile, isTablet, isWechat, isAlipay, deviceType };
}

export function currentDevice(): DeviceInfo {
  if (typeof navigator === 'undefined') return detectDevice('');
  return detectDevice(navigator.userAgent, navigator.maxTouchPoints ?? 0);
}
