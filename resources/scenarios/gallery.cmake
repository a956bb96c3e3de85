# The claims gallery (shared/claims.md): scenario files relative to resources/scenarios,
# in claim order. Targets embed them with
#   qt_add_resources(target "gallery" PREFIX "/gallery" BASE ${SCALESCOPE_RESOURCES_DIR}/scenarios
#                    FILES <the files prefixed with ${SCALESCOPE_RESOURCES_DIR}/scenarios/>)
# and read them with loadGallery(":/gallery") (model/io/gallery_io.h).
set(SCALESCOPE_GALLERY_FILES
  claim01-sublinear-speedup.json
  claim02-16-slower-than-8.json
  claim02-with-nvlink-infiniband.json
  claim03-communication-share.json
  claim04-a-small-batch.json
  claim04-b-large-batch.json
  claim05-a-sync-straggler.json
  claim05-b-async.json
  claim06-a-one-node-of-8.json
  claim06-b-two-nodes-of-4.json
  claim07-a-nvlink-bridge.json
  claim07-b-pcie.json
  claim08-a-ddp-out-of-memory.json
  claim08-b-zero3-fits.json
  claim09-a-many-micro-batches.json
  claim09-b-few-micro-batches.json
  claim10-tensor-parallel-2-gpus.json
  claim11-thermal-throttling.json
  claim12-a-starved-loader.json
  claim12-b-enough-workers.json
  claim13-virtual-gpu-slices.json
  claim14-small-model.json
  claim15-a-image-classification.json
  claim15-b-language-model.json
  claim16-economics-4x4090.json
  claim17-moe-all-to-all.json
  claim18-long-context.json)
