import type { OpHandler, ORDER_OPS } from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import type { OrdersDeps } from '../deps.ts';
import { idemOf, writeOrder } from '../write.ts';

const n = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

/**
 * `admin.courier` `{ eventType: COURIER_*, delivery }`: courier tracking. Emits that event with
 * `metadata: { delivery: { courier, route, stop, location, estimatedDeliveryDateTime, trackingUrl } }`
 * (every key present, null when not given). The situation does not change. Not for INDOOR orders,
 * nor for unpaid or cancelled ones (422 invalid_transition).
 */
export function adminCourier(deps: OrdersDeps): OpHandler<typeof ORDER_OPS.adminCourier> {
  return async (req) => {
    const { eventType, delivery: d } = req.body;
    const delivery = {
      courier: d.courier
        ? {
            id: n(d.courier.id),
            name: d.courier.name,
            phone: n(d.courier.phone),
            vehicle: d.courier.vehicle
              ? { type: d.courier.vehicle.type, licensePlate: n(d.courier.vehicle.licensePlate) }
              : null,
          }
        : null,
      route: d.route
        ? { id: n(d.route.id), stopIndex: n(d.route.stopIndex), totalStops: n(d.route.totalStops) }
        : null,
      stop: d.stop ? { status: d.stop.status, reason: n(d.stop.reason) } : null,
      location: d.location ? { latitude: d.location.latitude, longitude: d.location.longitude } : null,
      estimatedDeliveryDateTime: d.estimatedDeliveryDateTime
        ? new Date(d.estimatedDeliveryDateTime).toISOString()
        : null,
      trackingUrl: n(d.trackingUrl),
    };
    return writeOrder(deps, {
      scope: { orderId: req.params?.orderId ?? '', hidePendingPayment: false },
      actor: { kind: 'COURIER' },
      idem: idemOf(req),
      plan: (o) => {
        if (o.type === 'INDOOR' || o.situation === 'PENDING_PAYMENT' || o.situation === 'CANCELLED')
          throw new HttpException(errors.invalidTransition(o.situation, eventType));
        const metadata = { delivery };
        return {
          change: { event: { type: eventType, metadata }, history: { trigger: 'courier', detail: metadata } },
          answer: ({ eventId }) => ({ status: 202, body: { status: 'accepted', eventId } }),
        };
      },
    });
  };
}
