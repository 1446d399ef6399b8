-- Bounded webhook queues (docs/api.md "Webhooks", issue 24). Fan-out updates a patient's waiting delivery that was
-- never offered to the receiver instead of queuing another (its anchor covers the older change), and past
-- webhooks.maxPendingDeliveries drops the oldest waiting ones (marked failed, counted in dropped_deliveries).
-- Deliveries up to coalesce_floor are never updated: a replay requeued them, and the receiver may have them.
ALTER TABLE webhook_subscriptions ADD COLUMN coalesce_floor INTEGER NOT NULL DEFAULT 0;
ALTER TABLE webhook_subscriptions ADD COLUMN dropped_deliveries INTEGER NOT NULL DEFAULT 0;
-- A patient's waiting delivery, found per change during fan-out.
CREATE INDEX webhook_deliveries_pending_patient ON webhook_deliveries (subscription_id, patient, sequence) WHERE state = 'pending';
