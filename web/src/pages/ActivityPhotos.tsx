// The activity's photos in its Details tab: upload (JPEG or PNG, checked again by the service by its bytes),
// say what each shows (the alternative text guests' screen readers read), remove. The first is the cover on
// the booking pages and for partners. The service resizes each once; this shows its smallest size.
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { type Activity, csrfHeaders, request } from '../api';
import { Card, Icon, useToast } from '../ui';

type Photo = Activity['Photos'][number];
const MAX_BYTES = 8 * 1024 * 1024;
const MAX_PHOTOS = 10;
const pathOf = (url: string) => new URL(url, location.origin).pathname;

function PhotoItem({ activity, photo, onChanged }: { activity: Activity; photo: Photo; onChanged: () => Promise<void> }) {
  const toast = useToast();
  const [alt, setAlt] = useState(photo.Alt);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const id = useId();
  const path = `/api/v2/admin/activities/${activity.ActivityID}/photos/${photo.ID}`;

  async function run(work: () => Promise<unknown>, done: string) {
    setBusy(true);
    setError(undefined);
    try {
      await work();
      await onChanged();
      toast(done);
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="photo-item">
      <img src={pathOf(photo.Sizes[0]?.Url ?? photo.Url)} alt={photo.Alt} width={160} />
      <label htmlFor={id}>What it shows</label>
      <input id={id} value={alt} maxLength={300} onChange={(event) => setAlt(event.target.value)} />
      <div className="photo-actions">
        <button
          type="button"
          className="btn btn-secondary"
          disabled={busy || alt === photo.Alt}
          onClick={() => void run(() => request('PATCH', path, { body: { Alt: alt } }), 'Description saved.')}
        >
          Save
        </button>
        <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => void run(() => request('DELETE', path), 'Photo removed.')}>
          <Icon name="trash" /> Remove
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

export function ActivityPhotos({ activity, onChanged }: { activity: Activity; onChanged: () => Promise<void> }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const full = activity.Photos.length >= MAX_PHOTOS;

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    setError(undefined);
    if (!['image/png', 'image/jpeg'].includes(file.type)) return setError('Choose a JPEG or PNG photo.');
    if (file.size > MAX_BYTES) return setError(`The photo is ${(file.size / 1024 / 1024).toFixed(1)} MiB; at most 8 MiB.`);
    setBusy(true);
    try {
      const response = await fetch(`/api/v2/admin/activities/${activity.ActivityID}/photos`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': file.type, Accept: 'application/json', ...csrfHeaders() },
        body: file,
      });
      const body = (await response.json().catch(() => ({}))) as { data?: Photo; detail?: string; errors?: { message: string }[] };
      if (!response.ok || !body.data) throw new Error(body.errors?.[0]?.message ?? body.detail ?? `The service answered ${response.status}`);
      await onChanged();
      toast('Photo added. Say what it shows, for guests who cannot see it.');
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  }

  return (
    <Card title="Photos">
      {activity.Photos.length === 0 ? (
        <p className="muted">No photos yet. Guests book more readily when they can see the activity.</p>
      ) : (
        <ul className="photo-list">
          {activity.Photos.map((photo) => (
            <PhotoItem key={`${photo.ID}-${photo.Alt}`} activity={activity} photo={photo} onChanged={onChanged} />
          ))}
        </ul>
      )}
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => input.current?.click()}
        disabled={busy || full}
        aria-describedby={`${id}-hint`}
      >
        <Icon name="file" /> {busy ? 'Uploading…' : 'Add a photo'}
      </button>
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png"
        onChange={(event) => void upload(event)}
        className="visually-hidden"
        tabIndex={-1}
        aria-label="Photo file"
      />
      <p className="field-hint" id={`${id}-hint`}>
        JPEG or PNG, at most 8 MiB and {MAX_PHOTOS} photos; the first is the cover on your booking pages and for partners.
        {full && ' Remove one to add another.'}
      </p>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </Card>
  );
}
