import {
  customerDecider,
  profileInput,
  profilePictureInput,
  requireActiveCustomer,
  streams,
  verificationInput,
  type FileUpload,
  type ImageDataUrl,
} from '@bank/domain';
import type { Request, Response } from 'express';
import type { AppDeps } from '../../appDeps';
import { authOf } from '../../auth/authContext';
import { nowIso } from '../../commands/clock';
import { commandScope, loadState, runCommand } from '../../commands/runCommand';
import { sendCommandResult } from '../../http/sendCommandResult';
import { decodeImage, storeImage, type DecodedImage } from '../files/imageUpload';
import { withUploadLock } from '../files/uploadLock';
import { changeCustomerProfile } from './changeCustomerProfile';
import { releaseSupersededFiles } from './releaseSupersededFiles';
import { userAfterCommand } from './currentUser';

export const VERIFICATION_SUBMITTED_MESSAGE = 'Verification submitted successfully';
export const PROFILE_UPDATED_MESSAGE = 'Profile updated successfully';
export const PROFILE_PICTURE_UPDATED_MESSAGE = 'Profile picture updated successfully';

/** Stands in for a file not stored yet, while the domain decides on the sizes alone. */
function sizeOnly(image: ImageDataUrl | undefined): FileUpload | undefined {
  return image && { fileId: '00000000-0000-4000-8000-000000000000', sha256: '0'.repeat(64), sizeBytes: image.sizeBytes };
}

function decodeIfPresent(image: ImageDataUrl | undefined, path: string): DecodedImage | undefined {
  return image && decodeImage(image, path);
}

/**
 * POST /user/verification: images as data URLs. The domain decides first on what was sent (422 'All fields are
 * required', 'File size must be less than 10MB', under 18), then each image is checked by its bytes (400),
 * stored, and the submission recorded (status pending); the documents it replaces are released (and deleted when
 * no one else uploaded the same bytes).
 */
export function submitVerification(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = verificationInput.parse(req.body);
    const { userId } = authOf(req);
    const streamId = streams.customer(userId);
    const now = nowIso(deps);
    const customer = requireActiveCustomer((await loadState(deps, customerDecider, streamId)).state);
    const base = { type: 'SubmitVerification' as const, documentType: input.documentType, dateOfBirth: input.dateOfBirth, now };
    customerDecider.decide(
      { ...base, passport: sizeOnly(input.passport), documentFront: sizeOnly(input.documentFront), documentBack: sizeOnly(input.documentBack) },
      customer,
    );
    const decoded = {
      passport: decodeIfPresent(input.passport, 'passport'),
      documentFront: decodeIfPresent(input.documentFront, 'documentFront'),
      documentBack: decodeIfPresent(input.documentBack, 'documentBack'),
    };
    const store = (image: DecodedImage | undefined) => (image ? storeImage(deps.pool, image, userId) : Promise.resolve(undefined));
    const result = await withUploadLock(deps, userId, async () => {
      const [passport, documentFront, documentBack] = await Promise.all([store(decoded.passport), store(decoded.documentFront), store(decoded.documentBack)]);
      const recorded = await runCommand(deps, commandScope(req, res), {
        decider: customerDecider,
        streamId,
        command: { ...base, passport, documentFront, documentBack },
      });
      await releaseSupersededFiles(deps, userId);
      return recorded;
    });
    await sendCommandResult(
      res,
      200,
      async ({ stale }: { stale: boolean }) => ({ message: VERIFICATION_SUBMITTED_MESSAGE, data: await userAfterCommand(deps, userId, stale) }),
      result.position,
    );
  };
}

/** PATCH /user/profile {firstName, lastName, email, phoneNumber, address, state}: names are read-only (422). */
export function updateProfile(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = profileInput.parse(req.body);
    const { userId } = authOf(req);
    const now = nowIso(deps);
    const position = await changeCustomerProfile(deps, commandScope(req, res), userId, () => ({ type: 'ChangeProfile', ...input, now }));
    await sendCommandResult(
      res,
      200,
      async ({ stale }: { stale: boolean }) => ({ message: PROFILE_UPDATED_MESSAGE, data: await userAfterCommand(deps, userId, stale) }),
      position,
    );
  };
}

/** PATCH /user/profile-picture {image}: a data-URL image up to 10 MB; {message, data: user}. The picture it replaces is released. */
export function updateProfilePicture(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = profilePictureInput.parse(req.body);
    const { userId } = authOf(req);
    const streamId = streams.customer(userId);
    const now = nowIso(deps);
    const customer = requireActiveCustomer((await loadState(deps, customerDecider, streamId)).state);
    customerDecider.decide({ type: 'SetProfilePicture', picture: sizeOnly(input.image)!, now }, customer);
    const image = decodeImage(input.image, 'image');
    const result = await withUploadLock(deps, userId, async () => {
      const picture = await storeImage(deps.pool, image, userId);
      const recorded = await runCommand(deps, commandScope(req, res), { decider: customerDecider, streamId, command: { type: 'SetProfilePicture', picture, now } });
      await releaseSupersededFiles(deps, userId);
      return recorded;
    });
    await sendCommandResult(
      res,
      200,
      async ({ stale }: { stale: boolean }) => ({ message: PROFILE_PICTURE_UPDATED_MESSAGE, data: await userAfterCommand(deps, userId, stale) }),
      result.position,
    );
  };
}
