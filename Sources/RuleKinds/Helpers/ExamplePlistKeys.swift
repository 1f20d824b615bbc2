/// Info.plist fragments for rule examples (bundle keys of apps and extensions).
enum ExamplePlistKeys {
    static let versions =
        "<key>CFBundleShortVersionString</key><string>$(MARKETING_VERSION)</string><key>CFBundleVersion</key><string>$(CURRENT_PROJECT_VERSION)</string>"
    static let extensionPoint =
        "<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string></dict>"
    static let goodKeys =
        "<key>CFBundleDisplayName</key><string>$(PRODUCT_NAME)</string><key>CFBundleName</key><string>$(PRODUCT_NAME)</string><key>CFBundleExecutable</key><string>$(EXECUTABLE_NAME)</string>"
        + versions
}
