import { useState } from 'react';
import { api, type ApiError, downloadFile, type WaiverAnswer } from '../api';
import { Card, ErrorBanner, Icon, Spinner, useLoad } from '../ui';

const TYPE_NAMES: Record<string, string> = {
  'application/pdf': 'PDF',
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
  'image/heic': 'HEIC',
  'image/heif': 'HEIF',
};

function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function answerText(answer: WaiverAnswer): string {
  if (answer.Type === 'boolean') return answer.Answer === 'true' ? 'Yes' : 'No';
  return answer.Answer;
}

/** A booking's waiver answers; a file answer is downloaded (never shown in the page: it is the guest's content). */
export function WaiverAnswersCard({ reference }: { reference: string }) {
  const loaded = useLoad((signal) => api.get<WaiverAnswer[]>(`/api/v2/admin/bookings/${reference}/waiver-answers`, undefined, signal), [reference]);
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState<string>();

  async function download(file: NonNullable<WaiverAnswer['File']>) {
    setBusy(file.FileID);
    setError(undefined);
    try {
      await downloadFile(file.Download, `${reference}-${file.FileID}`);
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(undefined);
    }
  }

  const answers = loaded.data;
  return (
    <Card title="Waiver answers" className="waiver-answers">
      {loaded.loading && !answers && <Spinner label="Loading the answers" />}
      <ErrorBanner error={loaded.error ?? error} onRetry={loaded.error ? loaded.reload : undefined} />
      {answers && answers.length === 0 && <p className="muted">No answers yet.</p>}
      {answers && answers.length > 0 && (
        <dl className="facts">
          {answers.map((answer) => (
            <div className="facts-row" key={answer.QuestionID}>
              <dt>{answer.Question}</dt>
              <dd>
                {answer.File ? (
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    onClick={() => download(answer.File!)}
                    disabled={busy === answer.File.FileID}
                  >
                    <Icon name="download" size={16} />
                    Download {TYPE_NAMES[answer.File.ContentType] ?? 'file'} ({fileSize(answer.File.Size)})
                  </button>
                ) : answer.Type === 'file' ? (
                  <span className="muted">The file is no longer stored</span>
                ) : (
                  answerText(answer)
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}
