//! The JSON schemas of the convertible apps.kruise.io kinds in both versions, as OpenKruise v1.9.0
//! declares them (`apis/apps/v1alpha1/*_types.go`, `apis/apps/v1beta1/*_types.go`). Embedded
//! Kubernetes types (object metadata, pod and job templates, volume claim templates, containers,
//! volumes, references) are the k8s.io/api v0.32.10 schemas of [`super::core_types`]; kruise-only
//! sub-structs without quantities or times that are not modelled member by member are
//! [`Shape::Any`] (carried verbatim).

use super::core_types::{
    BATCH_JOB_TEMPLATE_SPEC, CORE_CONTAINER_FIELDS, CORE_LOCAL_OBJECT_REFERENCE,
    CORE_OBJECT_FIELD_SELECTOR, CORE_OBJECT_REFERENCE, CORE_PERSISTENT_VOLUME_CLAIM,
    CORE_POD_TEMPLATE_SPEC, CORE_VOLUME, META_LABEL_SELECTOR, META_OBJECT_META,
};
use super::schema::Shape::{
    Any, Bool, Int32, Int64, IntOrStr, List, ListSkipNull, Map, Obj, Obj2, Str, Time,
};
use super::schema::{Field, Shape};

const STR_MAP: Shape = Map(&Str);
const STR_LIST: Shape = List(&Str);

/// `metav1.LabelSelector`.
pub const LABEL_SELECTOR: Shape = META_LABEL_SELECTOR;

/// `metav1.ObjectMeta`.
pub const OBJECT_META: Shape = META_OBJECT_META;

/// `corev1.PodTemplateSpec`.
const POD_TEMPLATE: Shape = CORE_POD_TEMPLATE_SPEC;

/// `batchv1.JobTemplateSpec`.
const JOB_TEMPLATE: Shape = BATCH_JOB_TEMPLATE_SPEC;

/// `corev1.PersistentVolumeClaim` (a StatefulSet volume claim template).
const PVC: Shape = CORE_PERSISTENT_VOLUME_CLAIM;

/// A status condition with `lastTransitionTime` (DaemonSet, StatefulSet).
const CONDITION: Shape = Obj(&[
    ("type", Str),
    ("status", Str),
    ("lastTransitionTime", Time),
    ("reason", Str),
    ("message", Str),
]);

/// A whole object: apiVersion, kind, metadata, spec, status.
const fn object(spec: &'static Shape, status: &'static Shape) -> [Field; 5] {
    [
        ("apiVersion", Str),
        ("kind", Str),
        ("metadata", OBJECT_META),
        ("spec", Shape::Ref(spec)),
        ("status", Shape::Ref(status)),
    ]
}

// ---------------------------------------------------------------- SidecarSet

/// The members `SidecarContainer` adds to the inlined `corev1.Container`.
const SIDECAR_CONTAINER_EXTRAS: &[Field] = &[
    ("podInjectPolicy", Str),
    (
        "upgradeStrategy",
        Obj(&[("upgradeType", Str), ("hotUpgradeEmptyImage", Str)]),
    ),
    ("shareVolumePolicy", Obj(&[("type", Str)])),
    ("shareVolumeDevicePolicy", Obj(&[("type", Str)])),
    (
        "transferEnv",
        List(&Obj(&[
            ("sourceContainerName", Str),
            (
                "sourceContainerNameFrom",
                Obj(&[("fieldRef", CORE_OBJECT_FIELD_SELECTOR)]),
            ),
            ("envName", Str),
            ("envNames", STR_LIST),
        ])),
    ),
    (
        "resourcesPolicy",
        Obj(&[
            ("targetContainersMode", Str),
            ("targetContainersNameRegex", Str),
            (
                "resourcesExpr",
                Obj(&[("limits", RESOURCE_EXPR), ("requests", RESOURCE_EXPR)]),
            ),
        ]),
    ),
];
const RESOURCE_EXPR: Shape = Obj(&[("cpu", Str), ("memory", Str)]);
const SIDECAR_CONTAINERS: Shape = List(&Obj2(CORE_CONTAINER_FIELDS, SIDECAR_CONTAINER_EXTRAS));

const SIDECARSET_UPDATE: Shape = Obj(&[
    ("type", Str),
    ("paused", Bool),
    ("selector", LABEL_SELECTOR),
    ("partition", IntOrStr),
    ("maxUnavailable", IntOrStr),
    ("priorityStrategy", Any),
    (
        "scatterStrategy",
        List(&Obj(&[("key", Str), ("value", Str)])),
    ),
]);
const SIDECARSET_INJECTION: Shape = Obj(&[
    ("paused", Bool),
    (
        "revision",
        Obj(&[
            ("customVersion", Str),
            ("revisionName", Str),
            ("policy", Str),
        ]),
    ),
]);
const PATCH_POD_METADATA: Shape = List(&Obj(&[("annotations", STR_MAP), ("patchPolicy", Str)]));

const SIDECARSET_STATUS: Shape = Obj(&[
    ("observedGeneration", Int64),
    ("matchedPods", Int32),
    ("updatedPods", Int32),
    ("readyPods", Int32),
    ("updatedReadyPods", Int32),
    ("latestRevision", Str),
    ("collisionCount", Int32),
]);

const SIDECARSET_SPEC_ALPHA: Shape = Obj(&[
    ("selector", LABEL_SELECTOR),
    ("namespace", Str),
    ("namespaceSelector", LABEL_SELECTOR),
    ("initContainers", SIDECAR_CONTAINERS),
    ("containers", SIDECAR_CONTAINERS),
    ("volumes", List(&CORE_VOLUME)),
    ("updateStrategy", SIDECARSET_UPDATE),
    ("injectionStrategy", SIDECARSET_INJECTION),
    ("imagePullSecrets", List(&CORE_LOCAL_OBJECT_REFERENCE)),
    ("revisionHistoryLimit", Int32),
    ("patchPodMetadata", PATCH_POD_METADATA),
]);
const SIDECARSET_SPEC_BETA: Shape = Obj(&[
    ("selector", LABEL_SELECTOR),
    ("namespaceSelector", LABEL_SELECTOR),
    ("initContainers", SIDECAR_CONTAINERS),
    ("containers", SIDECAR_CONTAINERS),
    ("volumes", List(&CORE_VOLUME)),
    ("updateStrategy", SIDECARSET_UPDATE),
    ("injectionStrategy", SIDECARSET_INJECTION),
    ("imagePullSecrets", List(&CORE_LOCAL_OBJECT_REFERENCE)),
    ("revisionHistoryLimit", Int32),
    ("patchPodMetadata", PATCH_POD_METADATA),
    ("customVersion", Str),
]);

// ---------------------------------------------------------------- Advanced DaemonSet

const DS_ROLLING: Shape = Obj(&[
    ("rollingUpdateType", Str),
    ("maxUnavailable", IntOrStr),
    ("maxSurge", IntOrStr),
    ("selector", LABEL_SELECTOR),
    ("partition", IntOrStr),
    ("paused", Bool),
]);
const DS_UPDATE: Shape = Obj(&[("type", Str), ("rollingUpdate", DS_ROLLING)]);
const DS_SPEC_ALPHA: Shape = Obj(&[
    ("selector", LABEL_SELECTOR),
    ("template", POD_TEMPLATE),
    ("updateStrategy", DS_UPDATE),
    ("minReadySeconds", Int32),
    ("burstReplicas", IntOrStr),
    ("revisionHistoryLimit", Int32),
    ("lifecycle", Any),
]);
const DS_SPEC_BETA: Shape = Obj(&[
    ("selector", LABEL_SELECTOR),
    ("template", POD_TEMPLATE),
    ("updateStrategy", DS_UPDATE),
    ("minReadySeconds", Int32),
    ("burstReplicas", IntOrStr),
    ("revisionHistoryLimit", Int32),
    ("lifecycle", Any),
    ("scaleStrategy", Obj(&[("partitionedScaling", Bool)])),
]);
const DS_STATUS_COMMON: [Field; 10] = [
    ("currentNumberScheduled", Int32),
    ("numberMisscheduled", Int32),
    ("desiredNumberScheduled", Int32),
    ("numberReady", Int32),
    ("observedGeneration", Int64),
    ("updatedNumberScheduled", Int32),
    ("numberAvailable", Int32),
    ("numberUnavailable", Int32),
    ("collisionCount", Int32),
    ("conditions", List(&CONDITION)),
];
const DS_STATUS_ALPHA: Shape = Obj(&concat11(DS_STATUS_COMMON, ("daemonSetHash", Str)));
const DS_STATUS_BETA: Shape = Obj(&concat11(DS_STATUS_COMMON, ("updateRevision", Str)));

const fn concat11(a: [Field; 10], b: Field) -> [Field; 11] {
    let [a0, a1, a2, a3, a4, a5, a6, a7, a8, a9] = a;
    [a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, b]
}

// ---------------------------------------------------------------- BroadcastJob

const COMPLETION_POLICY: Shape = Obj(&[
    ("type", Str),
    ("activeDeadlineSeconds", Int64),
    ("ttlSecondsAfterFinished", Int32),
]);
const BJ_SPEC: Shape = Obj(&[
    ("parallelism", IntOrStr),
    ("template", POD_TEMPLATE),
    ("completionPolicy", COMPLETION_POLICY),
    ("paused", Bool),
    (
        "failurePolicy",
        Obj(&[("type", Str), ("restartLimit", Int32)]),
    ),
]);
const BJ_STATUS: Shape = Obj(&[
    (
        "conditions",
        List(&Obj(&[
            ("type", Str),
            ("status", Str),
            ("lastProbeTime", Time),
            ("lastTransitionTime", Time),
            ("reason", Str),
            ("message", Str),
        ])),
    ),
    ("startTime", Time),
    ("completionTime", Time),
    ("active", Int32),
    ("succeeded", Int32),
    ("failed", Int32),
    ("desired", Int32),
    ("phase", Str),
]);

// ---------------------------------------------------------------- ImagePullJob / ImageListPullJob

const PULL_TEMPLATE: [Field; 9] = [
    ("pullSecrets", STR_LIST),
    (
        "selector",
        Obj(&[
            ("names", STR_LIST),
            ("matchLabels", STR_MAP),
            ("matchExpressions", Shape::Ref(&MATCH_EXPRESSIONS)),
        ]),
    ),
    ("podSelector", LABEL_SELECTOR),
    ("parallelism", IntOrStr),
    (
        "pullPolicy",
        Obj(&[("timeoutSeconds", Int32), ("backoffLimit", Int32)]),
    ),
    ("completionPolicy", COMPLETION_POLICY),
    (
        "sandboxConfig",
        Obj(&[("labels", STR_MAP), ("annotations", STR_MAP)]),
    ),
    ("imagePullPolicy", Str),
    ("image", Str),
];
const MATCH_EXPRESSIONS: Shape = List(&Obj(&[
    ("key", Str),
    ("operator", Str),
    ("values", STR_LIST),
]));
const IPJ_SPEC: Shape = Obj(&PULL_TEMPLATE);
const ILPJ_SPEC: Shape = Obj(&with_last(PULL_TEMPLATE, ("images", STR_LIST)));

const fn with_last(a: [Field; 9], b: Field) -> [Field; 9] {
    let [a0, a1, a2, a3, a4, a5, a6, a7, _] = a;
    [a0, a1, a2, a3, a4, a5, a6, a7, b]
}

const IPJ_STATUS: Shape = Obj(&[
    ("startTime", Time),
    ("completionTime", Time),
    ("desired", Int32),
    ("active", Int32),
    ("succeeded", Int32),
    ("failed", Int32),
    ("message", Str),
    ("failedNodes", STR_LIST),
]);
const ILPJ_STATUS: Shape = Obj(&[
    ("startTime", Time),
    ("completionTime", Time),
    ("desired", Int32),
    ("active", Int32),
    ("completed", Int32),
    ("succeeded", Int32),
    (
        "failedImageStatuses",
        ListSkipNull(&Obj(&[
            ("imagePullJob", Str),
            ("name", Str),
            ("message", Str),
        ])),
    ),
]);

// ---------------------------------------------------------------- AdvancedCronJob

const ACJ_SPEC_COMMON: [Field; 7] = [
    ("schedule", Str),
    ("timeZone", Str),
    ("startingDeadlineSeconds", Int64),
    ("concurrencyPolicy", Str),
    ("paused", Bool),
    ("successfulJobsHistoryLimit", Int32),
    ("failedJobsHistoryLimit", Int32),
];
const BJ_TEMPLATE: Shape = Obj(&[("metadata", OBJECT_META), ("spec", BJ_SPEC)]);
const ACJ_SPEC_ALPHA: Shape = Obj(&concat8(
    ACJ_SPEC_COMMON,
    (
        "template",
        Obj(&[
            ("jobTemplate", JOB_TEMPLATE),
            ("broadcastJobTemplate", BJ_TEMPLATE),
        ]),
    ),
));
const ACJ_SPEC_BETA: Shape = Obj(&concat8(
    ACJ_SPEC_COMMON,
    (
        "template",
        Obj(&[
            ("jobTemplate", JOB_TEMPLATE),
            ("broadcastJobTemplate", BJ_TEMPLATE),
            (
                "imageListPullJobTemplate",
                Obj(&[("metadata", OBJECT_META), ("spec", ILPJ_SPEC)]),
            ),
        ]),
    ),
));
const fn concat8(a: [Field; 7], b: Field) -> [Field; 8] {
    let [a0, a1, a2, a3, a4, a5, a6] = a;
    [a0, a1, a2, a3, a4, a5, a6, b]
}
const ACJ_STATUS: Shape = Obj(&[
    ("type", Str),
    ("active", List(&CORE_OBJECT_REFERENCE)),
    ("lastScheduleTime", Time),
]);

// ---------------------------------------------------------------- NodeImage

const NI_PULL_SECRET_ALPHA: Shape = Obj(&[("namespace", Str), ("name", Str)]);
const NI_PULL_SECRET_BETA: Shape = Obj(&[("namespace", Str), ("name", Str), ("mode", Str)]);
const NI_TAG: Shape = Obj(&[
    ("tag", Str),
    ("createdAt", Time),
    (
        "pullPolicy",
        Obj(&[
            ("timeoutSeconds", Int32),
            ("backoffLimit", Int32),
            ("ttlSecondsAfterFinished", Int32),
            ("activeDeadlineSeconds", Int64),
        ]),
    ),
    ("ownerReferences", List(&CORE_OBJECT_REFERENCE)),
    ("version", Int64),
    ("imagePullPolicy", Str),
]);
const NI_SANDBOX: Shape = Obj(&[("labels", STR_MAP), ("annotations", STR_MAP)]);
const NI_SPEC_ALPHA: Shape = Obj(&[(
    "images",
    Map(&Obj(&[
        ("pullSecrets", List(&NI_PULL_SECRET_ALPHA)),
        ("tags", List(&NI_TAG)),
        ("sandboxConfig", NI_SANDBOX),
    ])),
)]);
const NI_SPEC_BETA: Shape = Obj(&[(
    "images",
    Map(&Obj(&[
        ("pullSecrets", List(&NI_PULL_SECRET_BETA)),
        ("tags", List(&NI_TAG)),
        ("sandboxConfig", NI_SANDBOX),
    ])),
)]);
const NI_STATUS: Shape = Obj(&[
    ("desired", Int32),
    ("succeeded", Int32),
    ("failed", Int32),
    ("pulling", Int32),
    ("waiting", Int32),
    (
        "imageStatuses",
        Map(&Obj(&[(
            "tags",
            List(&Obj(&[
                ("tag", Str),
                ("phase", Str),
                ("progress", Int32),
                ("startTime", Time),
                ("completionTime", Time),
                ("version", Int64),
                ("imageID", Str),
                ("message", Str),
            ])),
        )])),
    ),
    (
        "firstSyncStatus",
        Obj(&[("syncAt", Time), ("status", Str), ("message", Str)]),
    ),
]);

// ---------------------------------------------------------------- Advanced StatefulSet

const STS_SPEC_COMMON: [Field; 8] = [
    ("replicas", Int32),
    ("selector", LABEL_SELECTOR),
    ("template", POD_TEMPLATE),
    ("volumeClaimTemplates", List(&PVC)),
    ("serviceName", Str),
    ("podManagementPolicy", Str),
    (
        "updateStrategy",
        Obj(&[
            ("type", Str),
            (
                "rollingUpdate",
                Obj(&[
                    ("partition", Int32),
                    ("maxUnavailable", IntOrStr),
                    ("podUpdatePolicy", Str),
                    ("paused", Bool),
                    ("unorderedUpdate", Obj(&[("priorityStrategy", Any)])),
                    ("inPlaceUpdateStrategy", Any),
                    ("minReadySeconds", Int32),
                ]),
            ),
        ]),
    ),
    ("revisionHistoryLimit", Int32),
];
const STS_SPEC_ALPHA: Shape = Obj(&STS_SPEC_COMMON);
const STS_SPEC_BETA: Shape = Obj(&concat14(
    STS_SPEC_COMMON,
    [
        ("volumeClaimUpdateStrategy", Any),
        ("reserveOrdinals", Any),
        ("lifecycle", Any),
        ("scaleStrategy", Any),
        ("persistentVolumeClaimRetentionPolicy", Any),
        ("ordinals", Any),
    ],
));
const fn concat14(a: [Field; 8], b: [Field; 6]) -> [Field; 14] {
    let [a0, a1, a2, a3, a4, a5, a6, a7] = a;
    let [b0, b1, b2, b3, b4, b5] = b;
    [a0, a1, a2, a3, a4, a5, a6, a7, b0, b1, b2, b3, b4, b5]
}
const STS_STATUS_COMMON: [Field; 11] = [
    ("observedGeneration", Int64),
    ("replicas", Int32),
    ("readyReplicas", Int32),
    ("availableReplicas", Int32),
    ("currentReplicas", Int32),
    ("updatedReplicas", Int32),
    ("currentRevision", Str),
    ("updateRevision", Str),
    ("collisionCount", Int32),
    ("conditions", List(&CONDITION)),
    ("labelSelector", Str),
];
const STS_STATUS_ALPHA: Shape = Obj(&STS_STATUS_COMMON);
const STS_STATUS_BETA: Shape = Obj(&concat14s(
    STS_STATUS_COMMON,
    [
        ("updatedReadyReplicas", Int32),
        ("updatedAvailableReplicas", Int32),
        ("volumeClaims", Any),
    ],
));
const fn concat14s(a: [Field; 11], b: [Field; 3]) -> [Field; 14] {
    let [a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10] = a;
    let [b0, b1, b2] = b;
    [a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, b0, b1, b2]
}

// ---------------------------------------------------------------- lookup

/// The convertible kinds of v1.9.0.
pub const CONVERTIBLE: &[&str] = &[
    "SidecarSet",
    "DaemonSet",
    "BroadcastJob",
    "AdvancedCronJob",
    "ImagePullJob",
    "ImageListPullJob",
    "NodeImage",
    "StatefulSet",
];

/// The whole-object schema of `kind` in version `beta` (false = v1alpha1); `None` for a kind with
/// no conversion.
pub fn object_shape(kind: &str, beta: bool) -> Option<&'static Shape> {
    Some(match (kind, beta) {
        ("SidecarSet", false) => &SIDECARSET_ALPHA,
        ("SidecarSet", true) => &SIDECARSET_BETA,
        ("DaemonSet", false) => &DS_ALPHA,
        ("DaemonSet", true) => &DS_BETA,
        ("BroadcastJob", _) => &BJ,
        ("AdvancedCronJob", false) => &ACJ_ALPHA,
        ("AdvancedCronJob", true) => &ACJ_BETA,
        ("ImagePullJob", _) => &IPJ,
        ("ImageListPullJob", _) => &ILPJ,
        ("NodeImage", false) => &NI_ALPHA,
        ("NodeImage", true) => &NI_BETA,
        ("StatefulSet", false) => &STS_ALPHA,
        ("StatefulSet", true) => &STS_BETA,
        _ => return None,
    })
}

const SIDECARSET_ALPHA: Shape = Obj(&object(&SIDECARSET_SPEC_ALPHA, &SIDECARSET_STATUS));
const SIDECARSET_BETA: Shape = Obj(&object(&SIDECARSET_SPEC_BETA, &SIDECARSET_STATUS));
const DS_ALPHA: Shape = Obj(&object(&DS_SPEC_ALPHA, &DS_STATUS_ALPHA));
const DS_BETA: Shape = Obj(&object(&DS_SPEC_BETA, &DS_STATUS_BETA));
const BJ: Shape = Obj(&object(&BJ_SPEC, &BJ_STATUS));
const ACJ_ALPHA: Shape = Obj(&object(&ACJ_SPEC_ALPHA, &ACJ_STATUS));
const ACJ_BETA: Shape = Obj(&object(&ACJ_SPEC_BETA, &ACJ_STATUS));
const IPJ: Shape = Obj(&object(&IPJ_SPEC, &IPJ_STATUS));
const ILPJ: Shape = Obj(&object(&ILPJ_SPEC, &ILPJ_STATUS));
const NI_ALPHA: Shape = Obj(&object(&NI_SPEC_ALPHA, &NI_STATUS));
const NI_BETA: Shape = Obj(&object(&NI_SPEC_BETA, &NI_STATUS));
const STS_ALPHA: Shape = Obj(&object(&STS_SPEC_ALPHA, &STS_STATUS_ALPHA));
const STS_BETA: Shape = Obj(&object(&STS_SPEC_BETA, &STS_STATUS_BETA));
