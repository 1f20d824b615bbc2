import CJPEGShim

extension RGBAImage {
    /// A JPEG's pixels (libjpeg-turbo through CJPEGShim), opaque. Damaged data is a failure, not
    /// a picture with grey where the data ran out; a CMYK JPEG is refused (no colour management).
    /// `maximumScans`: a real progressive JPEG has about ten; thousands make libjpeg re-run its
    /// passes for minutes.
    public static func decodeJPEG(_ bytes: [UInt8], maximumScans: Int32 = 256) -> Result<RGBAImage, Failure> {
        var out = rw_jpeg_rgba()
        let status = bytes.withUnsafeBufferPointer { rw_jpeg_decode_rgba8($0.baseAddress, $0.count, maximumBytes, maximumScans, &out) }
        defer { rw_jpeg_free(out.rgba) }
        let message = withUnsafeBytes(of: out.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard status == Int32(RW_JPEG_OK), let rgba = out.rgba else {
            return .failure(Failure(description: message.isEmpty ? "the JPEG cannot be decoded" : message))
        }
        // UInt32 sides (the shim checked width × height × 4 against the decode limit).
        let width = Int(truncatingIfNeeded: out.width)
        let height = Int(truncatingIfNeeded: out.height)
        return .success(
            RGBAImage(width: width, height: height, pixels: Array(UnsafeBufferPointer(start: rgba, count: width * height * 4))))
    }
}
