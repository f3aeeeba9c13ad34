/** Helpers for client test suites: a webhook receiver on loopback. */
export {
  startWebhookReceiver,
  type ReceivedWebhook,
  type ReceiverAnswer,
  type Responder,
  type ReceiverOptions,
  type WebhookReceiver,
} from './webhook-receiver';
