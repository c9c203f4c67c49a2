// The booking's QR code (an SVG the server draws from the reference, src/manifests/admin-routes.ts): what
// the door's phone scans (Manifests > Check in at the door). Shown for a confirmed booking only.
import { Card } from '../ui';

export function BookingQrCard({ reference, confirmed }: { reference: string; confirmed: boolean }) {
  if (!confirmed) return null;
  return (
    <Card title="QR code for check-in" className="qr-card">
      <div className="qr-layout">
        <img
          className="qr-image"
          src={`/api/v2/admin/bookings/${reference}/qr.svg`}
          width={160}
          height={160}
          alt={`QR code of booking ${reference}`}
        />
        <p className="muted small">
          It encodes the booking reference <span className="mono">{reference}</span>, nothing more. Staff scan it at the door with a phone (Manifests,
          Check in at the door), or type the reference.
        </p>
      </div>
    </Card>
  );
}
