package io.ossgw.emulator.storage;

/** {@code x-oss-object-type}: how an object was created. */
public enum ObjectType {
    /** PutObject or CopyObject. */
    Normal,
    /** CompleteMultipartUpload. */
    Multipart,
    /** AppendObject. */
    Appendable
}
