import { useId, type ChangeEvent } from 'react';
import { Icon } from '../../../components/Icon';

export interface ChosenImage {
  readonly name: string;
  readonly dataUrl: string;
}

export interface ImageUploadFieldProps {
  label: string;
  name: string;
  image: ChosenImage | null;
  error?: string;
  hint?: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}

/** An image file input with a preview of the chosen image and its own error message. */
export function ImageUploadField({ label, name, image, error, hint = 'JPG, PNG or WebP, less than 10MB', onChange }: ImageUploadFieldProps) {
  const id = useId();
  const describedBy = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={`field upload-field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <div className="upload-box">
        <div className="upload-preview">
          {image ? (
            <img src={image.dataUrl} alt={`Preview of ${label.toLowerCase()}`} />
          ) : (
            <span className="upload-placeholder" aria-hidden="true">
              <Icon name="photo" size={32} />
            </span>
          )}
        </div>
        <div className="upload-controls">
          <input id={id} name={name} type="file" accept="image/*" aria-invalid={error ? true : undefined} aria-describedby={describedBy} onChange={onChange} />
          <div className="field-hint" id={`${id}-hint`}>
            {image ? `Selected: ${image.name}` : hint}
          </div>
        </div>
      </div>
      {error ? (
        <div className="field-error" id={`${id}-error`} role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}
