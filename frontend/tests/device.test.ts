import { describe, expect, it } from 'vitest';
import { detectDevice } from '@/lib/device';

const UA = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  androidTablet: 'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  wechat: 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.40(0x18002831) NetType/WIFI Language/zh_CN',
  alipay: 'Mozilla/5.0 (Linux; U; Android 12; SM-G9910) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/69.0 Mobile Safari/537.36 AlipayClient/10.5.0',
};

describe('detectDevice', () => {
  it('knows phones', () => {
    expect(detectDevice(UA.iphone)).toEqual({ isMobile: true, isTablet: false, isWechat: false, isAlipay: false, deviceType: 'mobile' });
    expect(detectDevice(UA.android).deviceType).toBe('mobile');
  });

  it('knows tablets, including iPadOS posing as a Mac', () => {
    expect(detectDevice(UA.ipad)).toMatchObject({ isTablet: true, isMobile: false, deviceType: 'tablet' });
    expect(detectDevice(UA.androidTablet).deviceType).toBe('tablet');
    expect(detectDevice(UA.mac, 5).deviceType).toBe('tablet');
  });

  it('knows desktops', () => {
    expect(detectDevice(UA.mac)).toEqual({ isMobile: false, isTablet: false, isWechat: false, isAlipay: false, deviceType: 'desktop' });
    expect(detectDevice(UA.windows).deviceType).toBe('desktop');
    expect(detectDevice('').deviceType).toBe('desktop');
  });

  it('knows the WeChat and Alipay in-app browsers', () => {
    expect(detectDevice(UA.wechat)).toMatchObject({ isWechat: true, isAlipay: false, deviceType: 'mobile' });
    expect(detectDevice(UA.alipay)).toMatchObject({ isAlipay: true, isWechat: false, deviceType: 'mobile' });
  });
});
