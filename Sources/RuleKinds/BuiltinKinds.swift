import RuleKit

/// The explicit list of built-in rule kinds (a test checks every kind file is registered here).
public enum BuiltinKinds {
    public static let all: [any RuleKind.Type] = [
        PNGPropertiesKind.self,
        AppIconSetKind.self,
        AppIconReferenceKind.self,
        AlternateIconsKind.self,
        WatchIconsKind.self,
        AssetSetContentsKind.self,
        CatalogNamesKind.self,
        CatalogFilesKind.self,
        AccentColorKind.self,
        PlistSyntaxKind.self,
        UsageDescriptionsKind.self,
        InterfaceOrientationsKind.self,
        DeviceCapabilitiesKind.self,
        LprojNamesKind.self,
        LocalizedInfoPlistKind.self,
        SettingsBundleKind.self,
        LaunchScreenKind.self,
        LaunchAssetsKind.self,
        IconPlistKeysKind.self,
        BundleKeysKind.self,
        LaunchImageEntriesKind.self,
        BackgroundModesKind.self,
        AgingKeysKind.self,
        VersionFormatKind.self,
        SceneLifecycleKind.self,
        PurposeStringKeysKind.self,
        ITunesArtworkKind.self,
        LaunchImagesKind.self,
        LegacyIconsKind.self,
        LocalizedImageSizeKind.self,
        StrayIconTemplateKind.self,
        TVBrandAssetsKind.self,
        IconComposerBundleKind.self,
        PrivacyManifestKind.self,
        PrivacyBundlingKind.self,
        PrivacySourcesKind.self,
        IconComposerTargetKind.self,
        EntitlementsKind.self,
        ExecKind.self,
    ]

    public static let registry = KindRegistry(all)
}
