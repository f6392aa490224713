// The wallet's money-moving calls share the idempotency keys of src/lib (pledges use them too).
export { IntentKey, isUncertain, newIdempotencyKey } from '@/lib/idempotency';
