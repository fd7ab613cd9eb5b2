/* arpa/inet.h: pegbind's own compact version (POSIX basics). */
#ifndef __PEGBIND_ARPA_INET_H
#define __PEGBIND_ARPA_INET_H

#include <netinet/in.h>

in_addr_t inet_addr(const char *__cp);
char *inet_ntoa(struct in_addr __in);
int inet_pton(int __af, const char *__restrict __cp, void *__restrict __buf);
const char *inet_ntop(int __af, const void *__restrict __cp, char *__restrict __buf, socklen_t __len);

#endif /* __PEGBIND_ARPA_INET_H */
