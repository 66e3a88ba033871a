/** A class, define or node definition as the source of code (Puppet::Resource::Type). */
export class Source {
    /**
     * Set once a collector with an override block in this code has collected something: Puppet
     * then takes the code for a subclass of every other (Puppet::Resource::Type#override), for good.
     */
    override = false;

    constructor(readonly key: string, readonly parent: Source | null) {}

    /** Puppet's child_of?: a strict subclass (or any code once `override` is set). */
    childOf(other: Source): boolean {
        if (this.override) return true;
        for (let p = this.parent; p; p = p.parent) if (p === other) return true;
        return false;
    }

    /**
     * How Puppet names the source in messages: Ruby's default inspect of the type object, whose
     * address we cannot know; a stable made-up one stands in for it.
     */
    get inspect(): string {
        let h = 0x811c9dc5;
        for (const ch of this.key) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
        return `#<Puppet::Resource::Type:0x${(0x7f0000000000n + BigInt(h) * 8n).toString(16).padStart(16, '0')}>`;
    }
}
