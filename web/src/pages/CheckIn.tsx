// Check-in at the door, made for a phone: scan the booking's QR code with the camera (BarcodeDetector,
// where the browser has it) or type the reference; the booking opens with big check-in buttons.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ApiError } from '../api';
import { formatDate, zoneLabel } from '../format';
import { Link, usePageTitle } from '../router';
import { Badge, Card, ErrorBanner, Icon, PageHeader, Spinner, TextField } from '../ui';
import { lookUp, normaliseReference, REFERENCE_PATTERN, waiverBadge, type CheckinAnswer } from '../manifests';
import { CheckinControls, PaymentCell } from './CheckinControls';

// BarcodeDetector is not in TypeScript's DOM types yet (Chromium on Android and macOS have it).
interface DetectedCode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<DetectedCode[]>;
}
type BarcodeDetectorClass = new (options: { formats: string[] }) => BarcodeDetectorLike;
const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;

export function CheckInPage() {
  usePageTitle('Check in');
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState<string>();
  const [found, setFound] = useState<CheckinAnswer>();
  const [error, setError] = useState<ApiError>();
  const [loading, setLoading] = useState(false);
  const [scanning, setScanning] = useState(false);

  async function open(text: string) {
    const reference = normaliseReference(text);
    if (!REFERENCE_PATTERN.test(reference)) {
      setTypedError('A booking reference looks like BK-7KQ2MX9P');
      return;
    }
    setTypedError(undefined);
    setError(undefined);
    setLoading(true);
    try {
      setFound(await lookUp(reference));
    } catch (caught) {
      setFound(undefined);
      setError(caught as ApiError);
    } finally {
      setLoading(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void open(typed);
  }

  return (
    <div className="page checkin-page">
      <Link href="/manifests" className="back-link">
        <Icon name="left" size={16} />
        Manifests
      </Link>
      <PageHeader title="Check in" description="Scan the QR code of the guest's booking confirmation, or type its reference." />
      <Card>
        {Detector ? (
          scanning ? (
            <Scanner
              onCode={(code) => {
                setScanning(false);
                setTyped(code);
                void open(code);
              }}
              onStop={() => setScanning(false)}
            />
          ) : (
            <button type="button" className="btn btn-primary btn-block btn-large" onClick={() => setScanning(true)}>
              Scan a QR code
            </button>
          )
        ) : (
          <p className="muted small">This browser cannot read QR codes with the camera; type the reference instead.</p>
        )}
        <form className="reference-form" onSubmit={submit}>
          <TextField
            label="Booking reference"
            placeholder="BK-7KQ2MX9P"
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            value={typed}
            error={typedError}
            onChange={(e) => setTyped(e.target.value)}
          />
          <button type="submit" className="btn btn-secondary" disabled={loading}>
            Find
          </button>
        </form>
      </Card>
      {loading && <Spinner label="Looking the booking up" />}
      <ErrorBanner error={error} />
      {found && <FoundBooking answer={found} onChange={setFound} />}
    </div>
  );
}

function FoundBooking({ answer, onChange }: { answer: CheckinAnswer; onChange: (answer: CheckinAnswer) => void }) {
  const { Booking: booking, Timeslot: slot } = answer;
  return (
    <Card title={`${booking.Customer.FirstName} ${booking.Customer.LastName}`} className="found-booking">
      <dl className="facts">
        <dt>Booking</dt>
        <dd className="mono">{booking.BookingReference}</dd>
        <dt>Timeslot</dt>
        <dd>
          <Link href={`/manifests/${slot.TimeslotID}`}>
            {slot.ActivityName}, {formatDate(slot.Date)} {slot.Time} <span className="muted small">{zoneLabel(slot.TimeZone, slot.StartsAt)}</span>
          </Link>
        </dd>
        <dt>Party</dt>
        <dd>
          <span className="strong">{booking.Participants}</span> · {booking.Tickets.map((ticket) => `${ticket.Quantity} ${ticket.Name}`).join(', ')}
        </dd>
        <dt>Waiver</dt>
        <dd>
          <Badge tone={waiverBadge(booking).tone}>{waiverBadge(booking).label}</Badge>
        </dd>
        <dt>Channel</dt>
        <dd>{booking.Channel}</dd>
        <dt>Payment</dt>
        <dd>
          <PaymentCell entry={booking} />
        </dd>
      </dl>
      <div className="found-actions">
        <CheckinControls entry={booking} timeZone={slot.TimeZone} onChange={onChange} large />
      </div>
    </Card>
  );
}

/** The camera's picture, read for a QR code a few times a second until one is found or the user stops. */
function Scanner({ onCode, onStop }: { onCode: (code: string) => void; onStop: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState<string>();
  // The latest callback, without restarting the camera when the page re-renders.
  const found = useRef(onCode);
  found.current = onCode;
  useEffect(() => {
    let stream: MediaStream | undefined;
    let timer: number | undefined;
    let stopped = false;
    const detector = new Detector!({ formats: ['qr_code'] });
    (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
        if (stopped || !video.current) return;
        video.current.srcObject = stream;
        await video.current.play();
        const look = async () => {
          if (stopped || !video.current) return;
          const codes = await detector.detect(video.current).catch(() => []);
          const code = codes.map((c) => c.rawValue).find((value) => REFERENCE_PATTERN.test(normaliseReference(value)));
          if (code) found.current(code);
          else timer = window.setTimeout(look, 250);
        };
        void look();
      } catch {
        setProblem('The camera is not available (allow it for this site, or type the reference).');
      }
    })();
    return () => {
      stopped = true;
      if (timer) window.clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, []);
  return (
    <div className="scanner">
      {problem ? (
        <p className="field-error">{problem}</p>
      ) : (
        <video ref={video} className="scanner-video" muted playsInline aria-label="Camera picture" />
      )}
      <button type="button" className="btn btn-secondary" onClick={onStop}>
        Stop scanning
      </button>
    </div>
  );
}
