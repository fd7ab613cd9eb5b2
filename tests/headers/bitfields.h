// pegbind-flags:
/* Bitfields, packing and alignment attributes. */
struct flags {
    unsigned int ready : 1;
    unsigned int error : 1;
    unsigned int : 2;
    unsigned int level : 4;
    unsigned int count : 24;
};

struct mixed_bits {
    char tag;
    unsigned short low : 5;
    unsigned short high : 11;
    int : 0;
    unsigned char last : 3;
    long long wide : 40;
};

#pragma pack(push, 1)
struct packed_header {
    unsigned char version;
    unsigned int length;
    unsigned short checksum;
};
#pragma pack(pop)

#pragma pack(2)
struct pack2 {
    char c;
    double d;
};
#pragma pack()

struct attr_packed {
    char c;
    int i;
} __attribute__((packed));

struct attr_aligned {
    char c;
    int i __attribute__((aligned(16)));
} __attribute__((aligned(32)));

struct after_pop {
    char c;
    double d;
};
