// How an audit entry reads: the action in words, the values compact.

const ACTIONS: Record<string, string> = {
  'settings.update': 'Changed a setting',
  'user.disable': 'Disabled an account',
  'user.enable': 'Enabled an account',
  'user.roles': 'Changed roles',
  'book.take_down': 'Took a book down',
  'book.restore': 'Restored a book',
  'wallet.top_up': 'Topped up a wallet',
};

export function actionText(action: string): string {
  return ACTIONS[action] ?? action;
}

/** A value as one short line: strings bare, null as "none", the rest as JSON. */
export function valueText(value: unknown, max = 160): string {
  let text: string;
  if (value === null || value === undefined) text = 'none';
  else if (typeof value === 'string') text = value;
  else text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A uuid shortened to its last 8 digits (UUIDv7: the first are the time). */
export function shortId(id: string): string {
  return /^[0-9a-f-]{36}$/i.test(id) ? id.slice(-8) : id;
}

/** "user:0190…" -> "user …a1b2c3d4"; "setting:trial_percent" -> "setting trial_percent". */
export function targetText(target: string): string {
  const i = target.indexOf(':');
  if (i < 0) return target;
  return `${target.slice(0, i)} ${shortId(target.slice(i + 1))}`;
}
