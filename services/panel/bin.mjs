// `node services/<name>` starts this service alone (see libs/runtime/launch.mjs).
import { launch } from '@od/runtime/launch';

await launch(import.meta.url);
